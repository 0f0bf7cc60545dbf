import { startAuthentication, startRegistration } from "@simplewebauthn/browser";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/browser";
import { base64url } from "jose";
import {
  PASSKEY_RP_ID_PLACEHOLDER,
  PASSKEY_USER_ID_MAX_BYTES,
  type passkeyAuthenticationCredential,
  type passkeyRegistrationCredential,
  webAuthnErrorCodes,
} from "../contract/areas/passkeys.ts";
import type { z } from "zod";
import { KnownError, type KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, err, type Result } from "../errors/result.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { browserOf } from "./browser-env.ts";
import type { WebAuthnAdapter } from "./browser-interfaces.ts";
import { withMfaRedirect } from "./mfa.ts";
import { asClient } from "../transport/operation-call.ts";
import { caughtErrors } from "./caught-errors.ts";

export type { WebAuthnAdapter } from "./browser-interfaces.ts";

/**
 * Passkeys (spec §5, §8 "Passkey"; protocol.md §7.6). The provider's options carry an RP-id placeholder that the
 * client replaces with its hostname; the ceremony itself runs in a WebAuthn adapter — @simplewebauthn/browser by
 * default, a software authenticator in tests (the `webAuthn` app option).
 */

export const browserWebAuthn: WebAuthnAdapter = {
  startRegistration: (optionsJSON) => startRegistration({ optionsJSON }),
  startAuthentication: (optionsJSON) => startAuthentication({ optionsJSON }),
};

export type PasskeyRegistrationError = KnownErrorOf<"PASSKEY_REGISTRATION_FAILED" | "PASSKEY_WEBAUTHN_ERROR">;
export type PasskeySignInError = KnownErrorOf<
  "PASSKEY_AUTHENTICATION_FAILED" | "INVALID_TOTP_CODE" | "PASSKEY_WEBAUTHN_ERROR"
>;

const adapterOf = (ctx: AppContext): WebAuthnAdapter => ctx.appOptions.webAuthn ?? browserWebAuthn;

/** A ceremony that failed in the browser: PASSKEY_WEBAUTHN_ERROR with the WebAuthn failure code (spec §8). */
function webAuthnError(error: unknown): KnownErrorOf<"PASSKEY_WEBAUTHN_ERROR"> | null {
  const code = error !== null && typeof error === "object" && "code" in error ? error.code : undefined;
  if (typeof code !== "string" || !(webAuthnErrorCodes as readonly string[]).includes(code)) return null;
  const message = error instanceof Error ? error.message : code;
  return new KnownError("PASSKEY_WEBAUTHN_ERROR", { message, code }) as KnownErrorOf<"PASSKEY_WEBAUTHN_ERROR">;
}

function assertPlaceholder(rpId: string | undefined): void {
  // spec §5: anything else means the provider does not speak this protocol; refusing beats registering a wrong RP.
  if (rpId !== PASSKEY_RP_ID_PLACEHOLDER)
    throw new Error(
      `Expected the RP ID from the server to be the placeholder ${PASSKEY_RP_ID_PLACEHOLDER}, but found ${String(rpId)}.`,
    );
}

function hostnameOf(ctx: AppContext, hostname: string | undefined): string {
  const page = browserOf(ctx).currentUrl();
  const resolved = hostname ?? (page ? new URL(page).hostname : undefined);
  if (!resolved)
    throw new Error(
      "registerPasskey needs a hostname: pass { hostname }, run in a browser, or pass browser.currentUrl.",
    );
  return resolved;
}

/** user.registerPasskey({hostname?}) (sdk-surface.md §9b). */
/**
 * The browser's credential JSON as the contract's body part. @simplewebauthn/browser types it with interfaces, which
 * have no index signature, so TypeScript does not match them to the contract's loose objects although the value is
 * exactly what goes on the wire (the fake provider parses it with the same schema): this is the one place that says so.
 */
function wireJson<S extends z.ZodType>(credential: RegistrationResponseJSON | AuthenticationResponseJSON): z.input<S> {
  return credential as z.input<S>;
}

export async function registerPasskey(
  ctx: AppContext,
  session: Session,
  options: { hostname?: string } = {},
): Promise<Result<void, PasskeyRegistrationError>> {
  const me = { session, allowAnonymousUser: true } as const;
  const hostname = hostnameOf(ctx, options.hostname);
  const init = await asClient.json(ctx.transport, "initiatePasskeyRegistration", { ...me, body: {} });
  const optionsJson = init.options_json as unknown as PublicKeyCredentialCreationOptionsJSON;
  assertPlaceholder(optionsJson.rp.id);
  // spec §5: the user handle is 1 to 64 bytes (a browser refuses anything else with this code).
  const userIdBytes = base64url.decode(optionsJson.user.id).length;
  if (userIdBytes < 1 || userIdBytes > PASSKEY_USER_ID_MAX_BYTES) {
    return err(
      new KnownError("PASSKEY_WEBAUTHN_ERROR", {
        message: "User ID was not between 1 and 64 characters",
        code: "ERROR_INVALID_USER_ID_LENGTH",
      }) as KnownErrorOf<"PASSKEY_WEBAUTHN_ERROR">,
    );
  }
  let credential: RegistrationResponseJSON;
  try {
    credential = await adapterOf(ctx).startRegistration({ ...optionsJson, rp: { ...optionsJson.rp, id: hostname } });
  } catch (error) {
    return err(
      webAuthnError(error) ??
        (new KnownError(
          "PASSKEY_REGISTRATION_FAILED",
          {},
          { message: "Failed to start passkey registration due to unknown error" },
        ) as KnownErrorOf<"PASSKEY_REGISTRATION_FAILED">),
    );
  }
  return catchKnown(async () => {
    await asClient.json(ctx.transport, "registerPasskey", {
      ...me,
      body: { credential: wireJson<typeof passkeyRegistrationCredential>(credential), code: init.code },
    });
  }, caughtErrors.registerPasskey);
}

/**
 * StackClientApp.signInWithPasskey(): the passkey of the page's hostname signs in (MFA may follow, spec §4), then the
 * browser goes to after-sign-in. `noRedirect` (not in the published kit; as on the other sign-in calls) leaves that to
 * the caller, e.g. a sign-in page honouring after_auth_return_to (spec §2).
 */
export async function signInWithPasskey(
  ctx: AppContext,
  session: Session,
  options: { noRedirect?: boolean } = {},
): Promise<Result<void, PasskeySignInError>> {
  const hostname = hostnameOf(ctx, undefined);
  const init = await asClient.json(ctx.transport, "initiatePasskeyAuthentication", { body: {} });
  const optionsJson = init.options_json as unknown as PublicKeyCredentialRequestOptionsJSON;
  assertPlaceholder(optionsJson.rpId);
  let response: AuthenticationResponseJSON;
  try {
    response = await adapterOf(ctx).startAuthentication({ ...optionsJson, rpId: hostname });
  } catch (error) {
    return err(
      webAuthnError(error) ??
        (new KnownError(
          "PASSKEY_AUTHENTICATION_FAILED",
          {},
          { message: "Failed to sign in with passkey" },
        ) as KnownErrorOf<"PASSKEY_AUTHENTICATION_FAILED">),
    );
  }
  const result = await catchKnown(
    () =>
      withMfaRedirect(ctx, async () => {
        const json = await asClient.json(ctx.transport, "passkeySignIn", {
          body: {
            authentication_response: wireJson<typeof passkeyAuthenticationCredential>(response),
            code: init.code,
          },
        });
        session.setTokens({ accessToken: json.access_token, refreshToken: json.refresh_token });
      }),
    caughtErrors.passkeySignIn,
  );
  if (result.status === "ok" && !options.noRedirect) await ctx.redirector.redirectIfPossible(ctx.urls.afterSignIn);
  return result;
}
