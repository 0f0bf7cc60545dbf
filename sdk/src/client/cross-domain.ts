import type { Session } from "../session/session.ts";
import { asClient } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";

/**
 * The cross-domain sign-in hand-off of the published kit's hosted mode: an app whose handler pages
 * are hosted elsewhere sends the person there with a return address on its own origin that carries a marker, a PKCE
 * state and code challenge it kept the verifier of, and where to go once back. The hosted page, once the person is
 * signed in, asks POST /auth/oauth/cross-domain/authorize for a one-time code bound to that challenge and sends the
 * browser to the return address with it; the app exchanges the code at /auth/oauth/token for the same session.
 */

/**
 * The query parameters of the hand-off, under the kit's current prefix and the one before its rebranding (the real
 * service's sources still say `stack_`): a page reads either, so an app on either kit version comes back signed in.
 */
const PREFIXES = ["hexclave", "stack"] as const;
const param = (prefix: string, name: "auth" | "state" | "code_challenge" | "after_callback_redirect_url") =>
  `${prefix}_cross_domain_${name}`;

function read(url: URL, name: "state" | "code_challenge" | "after_callback_redirect_url"): string | null {
  for (const prefix of PREFIXES) {
    const value = url.searchParams.get(param(prefix, name));
    if (value !== null) return value;
  }
  return null;
}

/** What the hosted page sends POST /auth/oauth/cross-domain/authorize, read from the return address and the page. */
export interface CrossDomainHandoff {
  /** The app's return address, code and state added to it by the service. */
  redirectUri: string;
  state: string;
  codeChallenge: string;
  /** Where the app goes once it has the session (the page the person started from). */
  afterCallbackRedirectUrl: string;
}

/**
 * The hand-off a redirect to `target` needs, or null for an ordinary redirect: only a target on another origin than
 * the page's, with the app's state and code challenge on the page's address or on the target itself (the kit puts
 * them on both). Without them the app kept no verifier, so a code would be of no use to it.
 */
export function crossDomainHandoff(target: string, page: URL): CrossDomainHandoff | null {
  let resolved: URL;
  try {
    resolved = new URL(target, page);
  } catch {
    return null;
  }
  if (resolved.origin === page.origin || (resolved.protocol !== "http:" && resolved.protocol !== "https:")) return null;
  const state = read(page, "state") ?? read(resolved, "state");
  const codeChallenge = read(page, "code_challenge") ?? read(resolved, "code_challenge");
  if (state === null || codeChallenge === null) return null;
  const afterCallback = read(page, "after_callback_redirect_url") ?? read(resolved, "after_callback_redirect_url");
  let afterCallbackRedirectUrl = page.href;
  if (afterCallback !== null) {
    try {
      afterCallbackRedirectUrl = new URL(afterCallback, resolved).href;
    } catch {
      // An address the app did not write: the service refuses it as it refuses any bad URL, so it goes as given.
      afterCallbackRedirectUrl = afterCallback;
    }
  }
  return { redirectUri: resolved.href, state, codeChallenge, afterCallbackRedirectUrl };
}

/**
 * POST /auth/oauth/cross-domain/authorize as the signed-in user (access and refresh token, which proves the session):
 * the address to send the browser to. The service decides whether the app's addresses are trusted (the project's
 * localhost allowance and trusted domains) and answers REDIRECT_URL_NOT_WHITELISTED when not.
 */
export async function createCrossDomainAuthRedirectUrl(
  ctx: AppContext,
  session: Session,
  handoff: CrossDomainHandoff,
): Promise<string> {
  const body = {
    redirect_uri: handoff.redirectUri,
    state: handoff.state,
    code_challenge: handoff.codeChallenge,
    code_challenge_method: "S256" as const,
    after_callback_redirect_url: handoff.afterCallbackRedirectUrl,
  };
  return (await asClient.json(ctx.transport, "crossDomainAuthorize", { session, body })).redirect_url;
}
