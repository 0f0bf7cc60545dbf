import { isKnownErrorOfType, type KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, type Result } from "../errors/result.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { browserOf } from "./browser-env.ts";
import { asClient } from "../transport/operation-call.ts";
import { caughtErrors } from "./caught-errors.ts";

/**
 * TOTP multi-factor sign-in (spec §4 "MFA", §7 "/auth/mfa/sign-in", §8 "MFA"; protocol.md §7.4). When a sign-in answers
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED, the attempt code is kept in session storage and the browser goes to the mfa
 * page, which finishes with signInWithMfa(totp, attemptCode).
 */

/** The session-storage key the published SDK (2.8.108) uses, so mfa pages written for it read ours too. */
export const MFA_ATTEMPT_CODE_STORAGE_KEY = "hexclave_mfa_attempt_code";

export type MfaSignInError = KnownErrorOf<"INVALID_TOTP_CODE" | "VERIFICATION_ERROR">;

/** The query parameter carrying the post-authentication destination (spec §2). */
const RETURN_TO_PARAM = "after_auth_return_to";

/**
 * The mfa page's URL. spec §2 passes after_auth_return_to from sign-in on to the redirect after authenticating, and
 * with MFA that redirect happens on the mfa page: so the return address goes along. It is the one given (the OAuth
 * callback's page carries none, so the callback passes the address it kept for the flow), else the current page's.
 */
function mfaPageUrl(ctx: AppContext, given: string | null): string {
  const page = browserOf(ctx).currentUrl();
  const returnTo = given ?? (page ? new URL(page).searchParams.get(RETURN_TO_PARAM) : null);
  if (!returnTo) return ctx.urls.mfa;
  const separator = ctx.urls.mfa.includes("?") ? "&" : "?";
  return `${ctx.urls.mfa}${separator}${RETURN_TO_PARAM}=${encodeURIComponent(returnTo)}`;
}

/** Keeps the attempt code and goes to the mfa page (when this app can navigate), with the return address if any. */
export async function rememberMfaAttempt(
  ctx: AppContext,
  error: KnownErrorOf<"MULTI_FACTOR_AUTHENTICATION_REQUIRED">,
  returnTo: string | null = null,
): Promise<void> {
  const attemptCode = error.details.attempt_code;
  if (typeof attemptCode !== "string")
    throw new Error("MULTI_FACTOR_AUTHENTICATION_REQUIRED came without details.attempt_code.", { cause: error });
  browserOf(ctx).sessionStorage?.setItem(MFA_ATTEMPT_CODE_STORAGE_KEY, attemptCode);
  await ctx.redirector.redirectIfPossible(mfaPageUrl(ctx, returnTo));
}

/**
 * Runs a sign-in; MFA required is handled as spec §4 says (attempt code kept, mfa page) and then rethrown, so code
 * that cannot navigate still sees it (with `details.attempt_code`).
 */
export async function withMfaRedirect<T>(ctx: AppContext, signIn: () => Promise<T>): Promise<T> {
  try {
    return await signIn();
  } catch (error) {
    if (isKnownErrorOfType(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED")) await rememberMfaAttempt(ctx, error);
    throw error;
  }
}

/** The attempt code the last MFA-required sign-in left for the mfa page, if any. */
export function pendingMfaAttemptCode(ctx: AppContext): string | null {
  return browserOf(ctx).sessionStorage?.getItem(MFA_ATTEMPT_CODE_STORAGE_KEY) ?? null;
}

/** StackClientApp.signInWithMfa(totp, code): a new user goes to after-sign-up, others to after-sign-in (spec §4). */
export async function signInWithMfa(
  ctx: AppContext,
  session: Session,
  totp: string,
  code: string,
  options: { noRedirect?: boolean } = {},
): Promise<Result<void, MfaSignInError>> {
  const result = await catchKnown(async () => {
    const json = await asClient.json(ctx.transport, "mfaSignIn", { body: { type: "totp", totp, code } });
    session.setTokens({ accessToken: json.access_token, refreshToken: json.refresh_token });
    return json.is_new_user;
  }, caughtErrors.mfaSignIn);
  if (result.status === "error") return result;
  browserOf(ctx).sessionStorage?.removeItem(MFA_ATTEMPT_CODE_STORAGE_KEY);
  if (!options.noRedirect)
    await ctx.redirector.redirectIfPossible(result.data ? ctx.urls.afterSignUp : ctx.urls.afterSignIn);
  return { status: "ok", data: undefined };
}
