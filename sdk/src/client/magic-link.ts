import type { KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, type Result } from "../errors/result.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { holdsAnonymousUser } from "./auth.ts";
import { asClient } from "../transport/operation-call.ts";
import { caughtErrors } from "./caught-errors.ts";

/** Magic link and one-time code sign-in (spec §4 "After sign-in"; sdk-surface.md §6; protocol.md §7.2). */

export type MagicLinkSendError = KnownErrorOf<"REDIRECT_URL_NOT_WHITELISTED" | "BOT_CHALLENGE_FAILED">;
export type MagicLinkSignInError = KnownErrorOf<"VERIFICATION_ERROR" | "INVALID_TOTP_CODE">;

function magicLinkCallback(ctx: AppContext, callbackUrl: string | undefined): string {
  const url = callbackUrl ?? ctx.redirector.absolute(ctx.urls.magicLinkCallback);
  if (!url)
    throw new Error(
      "Pass callbackUrl: the magicLinkCallback handler URL is relative and there is no page origin to resolve it against.",
    );
  return url;
}

/**
 * Emails a link (`callbackUrl?code=<code>`) and a 6-character code. The answer's nonce completes the short code:
 * signInWithMagicLink(otp + nonce) works as well as the link's code.
 */
export function sendMagicLinkEmail(
  ctx: AppContext,
  email: string,
  options: { callbackUrl?: string } = {},
): Promise<Result<{ nonce: string }, MagicLinkSendError>> {
  return catchKnown(async () => {
    const body = { email, callback_url: magicLinkCallback(ctx, options.callbackUrl) };
    const json = await asClient.json(ctx.transport, "sendSignInCode", { body });
    return { nonce: json.nonce };
  }, caughtErrors.sendSignInCode);
}

/**
 * Signs in with the link's code (or OTP + nonce) and stores the tokens. A new user then goes to the after-sign-up
 * route, others to after-sign-in (spec §4). A signed-in anonymous user is upgraded, as with password sign-up.
 */
export async function signInWithMagicLink(
  ctx: AppContext,
  session: Session,
  code: string,
  options: { noRedirect?: boolean } = {},
): Promise<Result<void, MagicLinkSignInError>> {
  const upgrade = await holdsAnonymousUser(session);
  const result = await catchKnown(async () => {
    const json = await asClient.json(ctx.transport, "otpSignIn", {
      body: { code },
      session: upgrade ? session : null,
      allowAnonymousUser: upgrade,
    });
    session.setTokens({ accessToken: json.access_token, refreshToken: json.refresh_token });
    return json.is_new_user;
  }, caughtErrors.otpSignIn);
  if (result.status === "error") return result;
  if (!options.noRedirect)
    await ctx.redirector.redirectIfPossible(result.data ? ctx.urls.afterSignUp : ctx.urls.afterSignIn);
  return { status: "ok", data: undefined };
}
