import { oauthAuthorizeJsonResponse, oauthErrorRedirectParams } from "../contract/areas/oauth.ts";
import { tokenResponse } from "../contract/areas/sessions.ts";
import { isKnownErrorCode } from "../contract/errors.ts";
import { constants, cookieNames, PUBLIC_CLIENT_SENTINEL } from "../contract/headers.ts";
import { createCodeVerifier, createOAuthState, s256CodeChallenge } from "../crypto/pkce.ts";
import { KnownError, isKnownErrorOfType } from "../errors/known-error.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { absoluteUrl, browserOf, readCookie, writeCookie } from "./browser-env.ts";
import { rememberMfaAttempt } from "./mfa.ts";
import { keepOAuthReturnUrl, takeOAuthReturnUrl } from "./oauth-return.ts";
import { sendBare } from "../transport/operation-call.ts";

/**
 * OAuth sign-in and account linking in the browser (protocol.md §7.5; spec §4, §5, §8, §9). The PKCE verifier waits in
 * the cookie `stack-oauth-outer-<state>` (one hour) while the browser visits the identity provider; the callback page
 * checks state and cookie, strips code and state from its URL, exchanges the code and stores the session.
 */

/** spec §8: the alert for a failed callback exchange, and for an invalid TOTP during it. */
export const OAUTH_CALLBACK_FAILED_MESSAGE = "Error signing in during OAuth callback. Please try again.";
export const OAUTH_CALLBACK_INVALID_TOTP_MESSAGE = "Invalid TOTP code. Please try signing in again.";

export interface OAuthUrlOptions {
  provider: string;
  type: "authenticate" | "link";
  afterCallbackRedirectUrl?: string | undefined;
  providerScope?: string | undefined;
}

function requireAbsolute(ctx: AppContext, url: string, what: string): string {
  const absolute = absoluteUrl(ctx, url);
  if (!absolute)
    throw new Error(
      `The ${what} URL "${url}" is relative and there is no page URL to resolve it against: pass browser.currentUrl or absolute handler URLs.`,
    );
  return absolute;
}

/** The callback URL the flow was started with; it must match at the exchange, without code and state (spec §5). */
function redirectUri(ctx: AppContext): string {
  const url = new URL(requireAbsolute(ctx, ctx.urls.oauthCallback, "oauthCallback"));
  url.searchParams.delete("code");
  url.searchParams.delete("state");
  return url.toString();
}

/**
 * Saves a fresh verifier under a fresh state and asks the provider (JSON mode, protocol.md §7.5) where to send the
 * browser. An admin session may not start OAuth (spec §5).
 */
export async function oauthLocation(ctx: AppContext, session: Session, options: OAuthUrlOptions): Promise<string> {
  if (ctx.adminSession) ctx.adminSession.refuse("OAuth");
  const cookies = browserOf(ctx).cookies;
  if (!cookies)
    throw new Error("OAuth needs a cookie store for its PKCE verifier: run it in a browser, or pass browser.cookies.");
  const verifier = createCodeVerifier(ctx.transport.random);
  const state = createOAuthState(ctx.transport.random);
  writeCookie(cookies, cookieNames.oauthOuterState(state), verifier, constants.oauthOuterStateCookieMaxAgeSeconds);
  keepOAuthReturnUrl(cookies, state, options.afterCallbackRedirectUrl);
  // The access token names the user to link, or the anonymous user a sign-in upgrades (protocol.md §7.8).
  const token = session.getRefreshToken() ? await session.getAccessToken() : null;
  const query = {
    client_id: ctx.projectId,
    client_secret: ctx.publishableClientKey || PUBLIC_CLIENT_SENTINEL,
    redirect_uri: redirectUri(ctx),
    scope: constants.oauthScope,
    state,
    grant_type: "authorization_code",
    code_challenge: await s256CodeChallenge(verifier),
    code_challenge_method: constants.oauthPkceMethod,
    response_type: constants.oauthResponseType,
    type: options.type,
    error_redirect_url: requireAbsolute(ctx, ctx.urls.error, "error"),
    token: token ?? undefined,
    after_callback_redirect_url: options.afterCallbackRedirectUrl,
    provider_scope: options.providerScope,
    stack_response_mode: "json",
  };
  const response = await sendBare(ctx.transport, "oauthAuthorize", {
    params: { provider_id: options.provider.toLowerCase() },
    query,
  });
  return ctx.transport.parseJson(response, oauthAuthorizeJsonResponse).location;
}

/** StackClientApp.signInWithOAuth: sends the browser to the provider (it never comes back to this call). */
export async function signInWithOAuth(
  ctx: AppContext,
  session: Session,
  provider: string,
  options: { returnTo?: string } = {},
): Promise<void> {
  const page = browserOf(ctx).currentUrl();
  // spec §2: after_auth_return_to on the current page carries the destination through the flow.
  const returnTo =
    options.returnTo ?? (page && new URL(page).searchParams.has("after_auth_return_to") ? page : undefined);
  const afterCallbackRedirectUrl = returnTo === undefined ? undefined : requireAbsolute(ctx, returnTo, "returnTo");
  await ctx.redirector.redirectTo(
    await oauthLocation(ctx, session, { provider, type: "authenticate", afterCallbackRedirectUrl }),
  );
}

/** user.linkConnectedAccount: the same flow with type "link", back to the current page. */
export async function linkConnectedAccount(
  ctx: AppContext,
  session: Session,
  provider: string,
  options: { scopes?: readonly string[] } = {},
): Promise<void> {
  const page = browserOf(ctx).currentUrl();
  const providerScope = options.scopes && options.scopes.length > 0 ? options.scopes.join(" ") : undefined;
  await ctx.redirector.redirectTo(
    await oauthLocation(ctx, session, {
      provider,
      type: "link",
      providerScope,
      afterCallbackRedirectUrl: page ?? undefined,
    }),
  );
}

/** A known error the provider sent back in the callback URL (protocol.md §7.5: errorCode, message, details). */
function knownErrorFromQuery(params: URLSearchParams): KnownError {
  const code = params.get("errorCode") ?? "";
  let details: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(params.get("details") ?? "{}");
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
      details = parsed as Record<string, unknown>;
  } catch {
    details = {};
  }
  if (!isKnownErrorCode(code)) return new KnownError("UNSUPPORTED_ERROR", { originalErrorCode: code });
  return new KnownError(code, details, { message: params.get("message") ?? undefined });
}

/**
 * StackClientApp.callOAuthCallback: true when this page was an OAuth callback and the user is now signed in. Missing
 * code, state or verifier cookie: ignored with a warning (spec §5), false. MFA required: the attempt code is kept and
 * the browser sent to the mfa page (spec §4), and the error is thrown.
 */
export async function callOAuthCallback(ctx: AppContext, session: Session): Promise<boolean> {
  const browser = browserOf(ctx);
  const page = browser.currentUrl();
  if (!page) throw new Error("callOAuthCallback needs the page URL: run it in a browser, or pass browser.currentUrl.");
  const url = new URL(page);
  if (url.searchParams.get("errorCode") && url.searchParams.get("message")) {
    const error = knownErrorFromQuery(url.searchParams);
    for (const name of oauthErrorRedirectParams) url.searchParams.delete(name);
    browser.replaceUrl(url.toString());
    throw error;
  }
  for (const name of ["code", "state"]) {
    if (!url.searchParams.has(name)) {
      browser.warn(
        `Missing required query parameter on OAuth callback: ${name}. Maybe you opened or reloaded the oauth-callback page from your history?`,
      );
      return false;
    }
  }
  const code = url.searchParams.get("code")!;
  const state = url.searchParams.get("state")!;
  const cookieName = cookieNames.oauthOuterState(state);
  const verifier = browser.cookies ? readCookie(browser.cookies, cookieName) : null;
  if (!verifier) {
    browser.warn(
      "Found an OAuth callback state in the query parameters, but not its cookie: the cookie expired, was deleted or was already used, or the page was opened from history. It is probably safe to ignore this unless you are debugging OAuth.",
    );
    return false;
  }
  writeCookie(browser.cookies!, cookieName, null, 0);
  const returnUrl = takeOAuthReturnUrl(browser.cookies!, state);
  url.searchParams.delete("code");
  url.searchParams.delete("state");
  browser.replaceUrl(url.toString());

  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code,
    redirect_uri: redirectUri(ctx),
    code_verifier: verifier,
    client_id: ctx.projectId,
    client_secret: ctx.publishableClientKey || PUBLIC_CLIENT_SENTINEL,
  });
  let tokens;
  try {
    const response = await sendBare(ctx.transport, "oauthToken", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    tokens = ctx.transport.parseJson(response, tokenResponse);
  } catch (error) {
    // The token response that would carry the return address never comes, so the kept copy goes on to the mfa page.
    if (isKnownErrorOfType(error, "MULTI_FACTOR_AUTHENTICATION_REQUIRED"))
      await rememberMfaAttempt(ctx, error, returnUrl);
    if (isKnownErrorOfType(error, "INVALID_TOTP_CODE")) {
      browser.alert(OAUTH_CALLBACK_INVALID_TOTP_MESSAGE);
      return false;
    }
    if (error instanceof KnownError) throw error;
    throw new Error(OAUTH_CALLBACK_FAILED_MESSAGE, { cause: error });
  }
  if (!tokens.refresh_token)
    throw new Error(OAUTH_CALLBACK_FAILED_MESSAGE, { cause: "The token endpoint answered no refresh token." });
  session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
  // spec §4: a new user goes to after-sign-up, others to after-sign-in; an explicit return address wins.
  const next = tokens.after_callback_redirect_url ?? (tokens.is_new_user ? ctx.urls.afterSignUp : ctx.urls.afterSignIn);
  await ctx.redirector.redirectIfPossible(next);
  return true;
}
