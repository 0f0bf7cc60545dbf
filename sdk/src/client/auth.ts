import { signInResponse } from "../contract/areas/sessions.ts";
import type { z } from "zod";
import type { KnownErrorCode } from "../contract/errors.ts";
import { isKnownErrorOfType, type KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, type Result } from "../errors/result.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import { caughtErrors } from "./caught-errors.ts";

/** Password and anonymous sign-in, and sign-out (spec §4 Session, §7 Auth; protocol.md §6.2, §7.1, §7.8). */

type SignInJson = z.output<typeof signInResponse>;

const SIGN_UP_ERRORS = caughtErrors.passwordSignUp;
const SIGN_IN_ERRORS = caughtErrors.passwordSignIn;

export type SignUpError = KnownErrorOf<(typeof SIGN_UP_ERRORS)[number]>;
export type SignInError = KnownErrorOf<(typeof SIGN_IN_ERRORS)[number]>;

export type SignUpWithCredentialOptions = { email: string; password: string; noRedirect?: boolean } & (
  | { noVerificationCallback: true; verificationCallbackUrl?: undefined }
  | { noVerificationCallback?: false; verificationCallbackUrl?: string }
);

export interface SignInWithCredentialOptions {
  email: string;
  password: string;
  noRedirect?: boolean;
}

/** `call` makes the sign-in's request with the session part it is given. */
async function storeSignIn(
  session: Session,
  call: (auth: CallAuth) => Promise<SignInJson>,
  anonymousUpgrade: boolean,
): Promise<void> {
  // An anonymous user's token is sent so the server upgrades that user instead of creating another (protocol.md §6.2).
  const tokens = await call({ session: anonymousUpgrade ? session : null, allowAnonymousUser: anonymousUpgrade });
  session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
}

/**
 * Whether the session belongs to an anonymous user, whose token a sign-up must send to upgrade it. A session holding
 * only its refresh token (e.g. once the one-day access cookie is gone) is refreshed first to find out; otherwise the
 * sign-up would make a new user and orphan the anonymous one (spec §4, protocol.md §7.8).
 */
export async function holdsAnonymousUser(session: Session): Promise<boolean> {
  if (!session.getAccessTokenClaims() && session.getRefreshToken()) await session.getAccessToken();
  return session.getAccessTokenClaims()?.is_anonymous === true;
}

export async function signUpWithCredential(
  ctx: AppContext,
  session: Session,
  options: SignUpWithCredentialOptions,
): Promise<Result<void, SignUpError>> {
  const callback = options.noVerificationCallback
    ? undefined
    : (options.verificationCallbackUrl ?? ctx.redirector.absolute(ctx.urls.emailVerification) ?? undefined);
  const anonymousUpgrade = await holdsAnonymousUser(session);
  const result = await catchKnown(
    () =>
      storeSignIn(
        session,
        (auth) =>
          asClient.json(ctx.transport, "passwordSignUp", {
            ...auth,
            body: { email: options.email, password: options.password, verification_callback_url: callback },
          }),
        anonymousUpgrade,
      ),
    SIGN_UP_ERRORS,
  );
  if (result.status === "ok" && !options.noRedirect) await ctx.redirector.redirectIfPossible(ctx.urls.afterSignUp);
  return result;
}

export async function signInWithCredential(
  ctx: AppContext,
  session: Session,
  options: SignInWithCredentialOptions,
): Promise<Result<void, SignInError>> {
  const result = await catchKnown(
    () =>
      storeSignIn(
        session,
        (auth) =>
          asClient.json(ctx.transport, "passwordSignIn", {
            ...auth,
            body: { email: options.email, password: options.password },
          }),
        false,
      ),
    SIGN_IN_ERRORS,
  );
  if (result.status === "ok" && !options.noRedirect) await ctx.redirector.redirectIfPossible(ctx.urls.afterSignIn);
  return result;
}

/** spec §4: asking for a user with the anonymous option signs up an anonymous user first. */
export async function signUpAnonymously(ctx: AppContext, session: Session): Promise<void> {
  await storeSignIn(session, (auth) => asClient.json(ctx.transport, "anonymousSignUp", { ...auth, body: {} }), false);
}

/** Known errors a sign-out ignores: the session is already gone server-side (protocol.md §4.5). */
const SIGN_OUT_IGNORED: KnownErrorCode = "REFRESH_TOKEN_ERROR";

/**
 * spec §4: sign-out calls the server, then marks the session invalid, even if the refresh token was already invalid
 * (and, so the user is signed out locally whatever happens, even when the call fails otherwise).
 */
export async function signOut(
  ctx: AppContext,
  session: Session,
  options: { redirectUrl?: string } = {},
): Promise<void> {
  try {
    // No usable access token (refresh refused or none stored): there is no server session left to end.
    if (await session.getAccessToken()) {
      await asClient.send(ctx.transport, "deleteCurrentSession", { body: {}, session, allowAnonymousUser: true });
    }
  } catch (e) {
    if (!isKnownErrorOfType(e, SIGN_OUT_IGNORED)) throw e;
  } finally {
    session.markInvalid();
  }
  await ctx.redirector.redirectIfPossible(options.redirectUrl ?? ctx.urls.afterSignOut);
}
