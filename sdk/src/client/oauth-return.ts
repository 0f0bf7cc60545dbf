import { constants } from "../contract/headers.ts";
import type { CookieDocument } from "../session/cookie-store.ts";
import { readCookie, writeCookie } from "./browser-env.ts";

/**
 * The after-callback redirect URL of an OAuth flow, kept in the browser next to its PKCE verifier. The provider gives
 * it back in the token response (protocol.md §7.5), but an exchange that needs MFA answers
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED with only an attempt code (spec §4). Without this copy the return address
 * that spec §2 passes on from sign-in would be lost at the mfa step, and MFA would end on afterSignIn.
 * The published SDK keeps no such copy, so this cookie has an authsim name rather than a stack- name.
 */
function cookieName(state: string): string {
  return `authsim-oauth-return-${state}`;
}

/** Keeps the URL for the flow with this state. It lasts as long as the verifier cookie does (spec §9: one hour). */
export function keepOAuthReturnUrl(cookies: CookieDocument, state: string, url: string | undefined): void {
  if (url !== undefined) writeCookie(cookies, cookieName(state), url, constants.oauthOuterStateCookieMaxAgeSeconds);
}

/** The URL kept for this state, or null. The cookie is deleted on the way out because a callback runs once. */
export function takeOAuthReturnUrl(cookies: CookieDocument, state: string): string | null {
  const url = readCookie(cookies, cookieName(state));
  if (url !== null) writeCookie(cookies, cookieName(state), null, 0);
  return url;
}
