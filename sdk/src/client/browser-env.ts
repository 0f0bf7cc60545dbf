import type { CookieDocument } from "../session/cookie-store.ts";
import type { AppContext } from "./app-context.ts";
import type { BrowserEnvironment, StorageLike } from "./browser-interfaces.ts";

export type { BrowserEnvironment, StorageLike } from "./browser-interfaces.ts";

/**
 * The browser pieces OAuth, MFA and passkeys need (spec §4 "MFA", §5 "OAuth redirect URL", §9 cookies), behind one
 * interface so they can be injected: in a browser each defaults to the global one; in Node a test passes its own
 * (a page URL, a cookie jar, a session store) and the same flows run without a browser.
 */

interface GlobalBrowser {
  location?: { href?: string };
  history?: { replaceState(data: unknown, unused: string, url: string): void };
  document?: CookieDocument;
  sessionStorage?: StorageLike;
  alert?: (message: string) => void;
}

export function resolveBrowserEnvironment(
  overrides: Partial<BrowserEnvironment> = {},
  document?: CookieDocument,
): BrowserEnvironment {
  const g = globalThis as GlobalBrowser;
  return {
    currentUrl: () => g.location?.href ?? null,
    replaceUrl: (url) => g.history?.replaceState({}, "", url),
    cookies: document ?? g.document ?? null,
    sessionStorage: g.sessionStorage ?? null,
    warn: (message) => console.warn(message),
    alert: (message) => (g.alert ? g.alert(message) : console.warn(message)),
    ...overrides,
  };
}

const resolved = new WeakMap<AppContext, BrowserEnvironment>();

/** The app's browser pieces (its `browser` option over the globals), resolved once per app. */
export function browserOf(ctx: AppContext): BrowserEnvironment {
  let env = resolved.get(ctx);
  if (!env) {
    env = resolveBrowserEnvironment(ctx.appOptions.browser, ctx.appOptions.document);
    resolved.set(ctx, env);
  }
  return env;
}

/** A URL made absolute against the page (or the redirector's origin); null when neither exists. */
export function absoluteUrl(ctx: AppContext, url: string): string | null {
  const page = browserOf(ctx).currentUrl();
  if (page) return new URL(url, page).toString();
  return ctx.redirector.absolute(url);
}

export function readCookie(doc: CookieDocument, name: string): string | null {
  for (const part of doc.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** Writes (or, with null, deletes) a site-wide Lax cookie, Secure on https pages. */
export function writeCookie(doc: CookieDocument, name: string, value: string | null, maxAgeSeconds: number): void {
  const secure = doc.location?.protocol === "https:" ? "; secure" : "";
  doc.cookie =
    value === null
      ? `${name}=; path=/; max-age=0; samesite=lax${secure}`
      : `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; samesite=lax${secure}`;
}

/**
 * A cookie jar with document.cookie's semantics (each assignment sets or, with max-age=0, removes one cookie; reading
 * lists them): the `cookies` of a browser environment outside a browser.
 */
export function memoryCookieDocument(): CookieDocument {
  const jar = new Map<string, string>();
  return {
    get cookie(): string {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },
    set cookie(assignment: string) {
      const [pair = "", ...attributes] = assignment.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      if (attributes.some((a) => a.trim().toLowerCase() === "max-age=0")) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    },
  };
}

/** A sessionStorage stand-in. */
export function memoryStorage(): StorageLike {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
}
