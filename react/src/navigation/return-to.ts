import { isTrustedRedirectUrl } from "@authsim/sdk/urls";
import type { TrustedRedirects } from "../provider/stack-context.ts";

/**
 * The post-authentication destination of spec §2: `after_auth_return_to` is read on sign-in and sign-up, passed on
 * between them, and used for the redirect after authenticating, but only when it is trusted (spec §5).
 */
export const RETURN_TO_PARAM = "after_auth_return_to";

export class UntrustedRedirectError extends Error {
  override readonly name = "UntrustedRedirectError";
  constructor(readonly url: string) {
    super(`Refusing to redirect to ${url}: it is not on this site nor on a trusted domain of the project.`);
  }
}

export function readReturnTo(page: URL): string | null {
  const value = page.searchParams.get(RETURN_TO_PARAM);
  return value && value.length > 0 ? value : null;
}

/** `url` with `after_auth_return_to` set (relative URLs stay relative). */
export function withReturnTo(url: string, returnTo: string | null): string {
  if (!returnTo) return url;
  const [path = "", hash] = url.split("#", 2);
  const separator = path.includes("?") ? "&" : "?";
  return `${path}${separator}${RETURN_TO_PARAM}=${encodeURIComponent(returnTo)}${hash === undefined ? "" : `#${hash}`}`;
}

/** Trusted: the page's own origin, or a trusted domain (localhost only when allowed), per sdk/src/urls/domains.ts. */
export function isTrustedTarget(target: string, page: URL, trusted: TrustedRedirects): boolean {
  let resolved: URL;
  try {
    resolved = new URL(target, page);
  } catch {
    return false;
  }
  if (resolved.protocol !== "http:" && resolved.protocol !== "https:") return false;
  if (resolved.origin === page.origin) return true;
  return isTrustedRedirectUrl(resolved, {
    allowLocalhost: trusted.allowLocalhost ?? false,
    domains: trusted.domains ?? [],
  });
}
