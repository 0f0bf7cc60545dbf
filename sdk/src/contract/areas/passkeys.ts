import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";
import { signInWithNewUserResponse } from "./sessions.ts";

/**
 * Passkeys (protocol.md §6.2, §7.6; spec §5, §8): the WebAuthn options and responses travel as the JSON forms of
 * @simplewebauthn (base64url strings); the schemas check the parts both sides read and let the rest through.
 */

/** spec §5: the RP id in the server's options is this placeholder; the client replaces it with its own hostname. */
export const PASSKEY_RP_ID_PLACEHOLDER = "THIS_VALUE_WILL_BE_REPLACED.example.com";
/** spec §5: a passkey's user handle is 1 to 64 bytes (WebAuthn §5.4.3). */
export const PASSKEY_USER_ID_MAX_BYTES = 64;

/** base64url, or plain base64 with its padding (browsers and recorded answers send either). */
const base64url = z.string().regex(/^[A-Za-z0-9_\-+/]*={0,2}$/, "must be base64url");

export const passkeyRegistrationOptions = z.looseObject({
  challenge: base64url,
  rp: z.looseObject({ id: z.string().optional(), name: z.string() }),
  user: z.looseObject({ id: base64url, name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ type: z.string(), alg: z.number() })),
});
export const passkeyAuthenticationOptions = z.looseObject({
  challenge: base64url,
  rpId: z.string().optional(),
});

export const initiatePasskeyBody = z.union([z.undefined(), z.strictObject({})]);
export const initiatePasskeyRegistrationResponse = z.object({
  options_json: passkeyRegistrationOptions,
  code: z.string(),
});
export const initiatePasskeyAuthenticationResponse = z.object({
  options_json: passkeyAuthenticationOptions,
  code: z.string(),
});

/** RegistrationResponseJSON / AuthenticationResponseJSON (WebAuthn Level 3 §5.1 toJSON()). */
export const passkeyRegistrationCredential = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.looseObject({ clientDataJSON: base64url, attestationObject: base64url }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});
export const passkeyAuthenticationCredential = z.looseObject({
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.looseObject({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

export const registerPasskeyBody = z.strictObject({ credential: passkeyRegistrationCredential, code: z.string() });
export const registerPasskeyResponse = z.object({ user_handle: z.string() });
export const passkeySignInBody = z.strictObject({
  authentication_response: passkeyAuthenticationCredential,
  code: z.string(),
});

/**
 * The WebAuthn failure codes a browser ceremony reports (spec §8 "WebAuthn failure codes"), as @simplewebauthn/browser
 * names them; the client turns them into PASSKEY_WEBAUTHN_ERROR with `details.code`.
 */
export const webAuthnErrorCodes = [
  "ERROR_CEREMONY_ABORTED",
  "ERROR_INVALID_DOMAIN",
  "ERROR_INVALID_RP_ID",
  "ERROR_INVALID_USER_ID_LENGTH",
  "ERROR_MALFORMED_PUBKEYCREDPARAMS",
  "ERROR_AUTHENTICATOR_GENERAL_ERROR",
  "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT",
  "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT",
  "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
  "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG",
  "ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE",
  "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY",
] as const;
export type WebAuthnErrorCode = (typeof webAuthnErrorCodes)[number];

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const passkeysOperations = defineOperations("passkeys", {
  initiatePasskeyRegistration: {
    method: "POST",
    path: "/auth/passkey/initiate-passkey-registration",
    access: "client",
    body: initiatePasskeyBody,
    errors: ["PASSKEY_AUTHENTICATION_NOT_ENABLED", "PASSKEY_REGISTRATION_FAILED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(initiatePasskeyRegistrationResponse)],
  },
  registerPasskey: {
    method: "POST",
    path: "/auth/passkey/register",
    access: "client",
    body: registerPasskeyBody,
    errors: [
      "PASSKEY_AUTHENTICATION_NOT_ENABLED",
      "PASSKEY_REGISTRATION_FAILED",
      "USER_AUTHENTICATION_REQUIRED",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(registerPasskeyResponse)],
  },
  initiatePasskeyAuthentication: {
    method: "POST",
    path: "/auth/passkey/initiate-passkey-authentication",
    access: "client",
    body: initiatePasskeyBody,
    errors: ["PASSKEY_AUTHENTICATION_NOT_ENABLED"],
    responses: [json(initiatePasskeyAuthenticationResponse)],
  },
  passkeySignIn: {
    method: "POST",
    path: "/auth/passkey/sign-in",
    access: "client",
    body: passkeySignInBody,
    errors: [
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
      "PASSKEY_AUTHENTICATION_FAILED",
      "PASSKEY_AUTHENTICATION_NOT_ENABLED",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(signInWithNewUserResponse)],
  },
});
