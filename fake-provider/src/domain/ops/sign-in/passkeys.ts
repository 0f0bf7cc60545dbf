import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { WithUnsignedToken } from "../../auth/tokens.ts";
import { base64url } from "jose";
import { PASSKEY_RP_ID_PLACEHOLDER, PASSKEY_USER_ID_MAX_BYTES, type SignInResponse } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import type { PasskeyRecord } from "../../store/strong-auth-records.ts";
import type { OpContext } from "../context.ts";
import { signInOrRequireMfa } from "./mfa.ts";
import { isTrustedFor } from "../oauth/oauth-client.ts";
import { createCode, redeemCode, spendCode } from "./verification-codes.ts";
import { setUserFields } from "../users/user-fields.ts";

/**
 * Passkeys (protocol.md §7.6; spec §5, §8): both ceremonies are generated and verified by @simplewebauthn/server. The
 * options carry the RP-id placeholder the client replaces with its hostname; at verification the RP id is the
 * hostname of the origin the authenticator saw, and that origin must be trusted (localhost only when allowed).
 */

/**
 * @simplewebauthn/server, with the ASN.1 and X.509 libraries under it, is over a third of the dev server's bundle and
 * sets up a dependency-injection container when loaded: it loads on the first ceremony, not at every start (the CLI's
 * cold start, issue 16). Every use below is already asynchronous.
 */
let webauthnLibrary: Promise<typeof import("@simplewebauthn/server")> | undefined;
const webauthn = () => (webauthnLibrary ??= import("@simplewebauthn/server"));

/** How long a ceremony may take (upstream: 60 s for the browser, plus a margin for the code). */
const CEREMONY_TIMEOUT_MILLIS = 60_000;
const CODE_LIFETIME_MILLIS = CEREMONY_TIMEOUT_MILLIS + 5_000;

function assertEnabled(project: ProjectRecord): void {
  if (!project.config.passkey_enabled) throw knownError("PASSKEY_AUTHENTICATION_NOT_ENABLED");
}

/**
 * The challenge comes from the emulator's random source, so a seeded run repeats exactly; or it is the fixed "MOCK"
 * when the emulator was started for recorded authenticator answers (settings.hardcodedPasskeyChallenge).
 */
const challengeOf = (ctx: OpContext) =>
  ctx.settings.hardcodedPasskeyChallenge ? new TextEncoder().encode("MOCK") : new Uint8Array(ctx.random.bytes(32));

/** Options as upstream answers them: an empty `hints` list is left out. */
function withoutEmptyHints<T extends { hints?: unknown[] }>(options: T): T {
  if (!Array.isArray(options.hints) || options.hints.length > 0) return options;
  const { hints: _hints, ...rest } = options;
  return rest as T;
}

function originOf(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(base64url.decode(clientDataJSON)));
    return parsed !== null && typeof parsed === "object" && "origin" in parsed && typeof parsed.origin === "string"
      ? parsed.origin
      : null;
  } catch {
    return null;
  }
}

export async function initiateRegistration(ctx: OpContext, project: ProjectRecord, user: UserRecord) {
  assertEnabled(project);
  // spec §5: the user handle is 1 to 64 bytes; ours is the user id's UTF-8 (36 bytes).
  const userID = new Uint8Array(new TextEncoder().encode(user.id));
  if (userID.length < 1 || userID.length > PASSKEY_USER_ID_MAX_BYTES)
    throw knownError("PASSKEY_REGISTRATION_FAILED", undefined, { message: "The user id is not 1 to 64 bytes." });
  const name = user.displayName ?? user.primaryEmail ?? "authsim user";
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: project.displayName,
    rpID: PASSKEY_RP_ID_PLACEHOLDER,
    userID,
    userName: name,
    userDisplayName: name,
    challenge: challengeOf(ctx),
    timeout: CEREMONY_TIMEOUT_MILLIS,
    attestationType: "none",
    // A passkey is a discoverable credential (upstream forces resident keys).
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  const code = createCode(ctx, {
    projectId: project.id,
    purpose: "passkey_registration",
    data: { user_id: user.id, challenge: options.challenge },
    expiresInMillis: CODE_LIFETIME_MILLIS,
  });
  return { options_json: withoutEmptyHints(options), code: code.code };
}

export async function registerPasskey(
  ctx: OpContext,
  project: ProjectRecord,
  user: UserRecord,
  body: { credential: unknown; code: string },
) {
  // The attempt code first, then whether passkeys are on, as the real handler checks them. Another user's attempt is
  // refused before the code is spent (the real service does not look: the passkey would go to the caller).
  const attempt = redeemCode(ctx, project.id, "passkey_registration", body.code, { consume: false });
  if (attempt.data.user_id !== user.id) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  spendCode(ctx, attempt);
  assertEnabled(project);
  const credential = body.credential as RegistrationResponseJSON;
  const origin = originOf(credential.response.clientDataJSON);
  if (!origin || !isTrustedFor(project, origin)) {
    throw knownError("PASSKEY_REGISTRATION_FAILED", undefined, {
      message: "Passkey registration failed because the origin is not allowed",
    });
  }
  const { verifyRegistrationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge: String(attempt.data.challenge),
      expectedOrigin: origin,
      expectedRPID: new URL(origin).hostname,
      expectedType: "webauthn.create",
      requireUserVerification: false,
    });
  } catch (error) {
    throw knownError("PASSKEY_REGISTRATION_FAILED", undefined, {
      message: `Passkey registration failed: ${error instanceof Error ? error.message : String(error)}`,
    });
  }
  if (!verification.verified)
    throw knownError("PASSKEY_REGISTRATION_FAILED", undefined, {
      message: "Passkey registration failed because the verification response is invalid",
    });
  const { credential: registered } = verification.registrationInfo;
  // One passkey per user, as upstream keeps it: a new registration replaces the old one.
  for (const old of [...ctx.tables.passkeys.values()])
    if (old.userId === user.id) ctx.tables.passkeys.delete(old.credentialId);
  const record: PasskeyRecord = {
    credentialId: registered.id,
    projectId: project.id,
    userId: user.id,
    publicKey: base64url.encode(registered.publicKey),
    counter: registered.counter,
    transports: registered.transports ?? [],
    createdAtMillis: ctx.now,
  };
  ctx.tables.passkeys.set(record.credentialId, record);
  setUserFields(ctx, user, { passkeyAuthEnabled: true });
  return { user_handle: registered.id };
}

export async function initiateAuthentication(ctx: OpContext, project: ProjectRecord) {
  assertEnabled(project);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: PASSKEY_RP_ID_PLACEHOLDER,
    challenge: challengeOf(ctx),
    timeout: CEREMONY_TIMEOUT_MILLIS,
    userVerification: "preferred",
    // Any discoverable credential: the list is sent, empty, as upstream sends it.
    allowCredentials: [],
  });
  const code = createCode(ctx, {
    projectId: project.id,
    purpose: "passkey_authentication",
    data: { challenge: options.challenge },
    expiresInMillis: CODE_LIFETIME_MILLIS,
  });
  return { options_json: withoutEmptyHints(options), code: code.code };
}

const authFailed = (message: string) => knownError("PASSKEY_AUTHENTICATION_FAILED", undefined, { message });

export async function passkeySignIn(
  ctx: OpContext,
  project: ProjectRecord,
  body: { authentication_response: unknown; code: string },
): Promise<WithUnsignedToken<SignInResponse> & { is_new_user: boolean }> {
  const attempt = redeemCode(ctx, project.id, "passkey_authentication", body.code, { consume: true });
  assertEnabled(project);
  const response = body.authentication_response as AuthenticationResponseJSON;
  const passkey = ctx.tables.passkeys.get(response.id);
  const user = passkey && passkey.projectId === project.id ? ctx.tables.users.get(passkey.userId) : undefined;
  if (!passkey || !user || !user.passkeyAuthEnabled) throw authFailed("Passkey not found");
  const origin = originOf(response.response.clientDataJSON);
  if (!origin) throw authFailed("Passkey authentication failed because the client data is not readable");
  const hostname = new URL(origin).hostname;
  // Localhost passes when allowed or when a trusted domain (a wildcard one included) matches it, as upstream checks.
  if (!isTrustedFor(project, origin))
    throw authFailed("Passkey authentication failed because the origin is not allowed");
  const { verifyAuthenticationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: String(attempt.data.challenge),
      expectedOrigin: origin,
      expectedRPID: hostname,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(base64url.decode(passkey.publicKey)),
        counter: passkey.counter,
      },
      requireUserVerification: false,
    });
  } catch (error) {
    throw authFailed(`Passkey authentication failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!verification.verified) {
    throw authFailed(
      "The signature of the authentication response could not be verified with the stored public key tied to this credential ID",
    );
  }
  ctx.tables.passkeys.set(passkey.credentialId, { ...passkey, counter: verification.authenticationInfo.newCounter });
  return { ...(await signInOrRequireMfa(ctx, user)), is_new_user: false };
}
