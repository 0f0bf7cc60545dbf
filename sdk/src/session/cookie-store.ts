import { constants, cookieNames } from "../contract/headers.ts";
import type { TokenPair, TokenStore } from "./token-store.ts";
import { sanitizeTokenPair } from "./token-store.ts";

/**
 * The browser cookie store (spec §9): access cookie `stack-access` (one day), refresh cookie
 * `stack-refresh-<projectId>` (one year), so two projects on one site keep separate sessions.
 */

/** The part of `document` the store uses; injectable so the store is testable outside a browser. */
export interface CookieDocument {
  cookie: string;
  location?: { protocol?: string };
}

function readCookies(doc: CookieDocument): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of doc.cookie.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    try {
      out.set(name, decodeURIComponent(raw));
    } catch {
      out.set(name, raw);
    }
  }
  return out;
}

function writeCookie(doc: CookieDocument, name: string, value: string | null, maxAgeSeconds: number): void {
  const secure = doc.location?.protocol === "https:" ? "; secure" : "";
  doc.cookie =
    value === null
      ? `${name}=; path=/; max-age=0; samesite=lax${secure}`
      : `${name}=${encodeURIComponent(value)}; path=/; max-age=${maxAgeSeconds}; samesite=lax${secure}`;
}

export function cookieTokenStore(projectId: string, doc?: CookieDocument): TokenStore {
  const document = doc ?? (globalThis as { document?: CookieDocument }).document;
  if (!document) {
    throw new Error(
      'The "cookie" token store needs a browser document; in Node use tokenStore: "memory", explicit tokens, or a request.',
    );
  }
  const accessName = cookieNames.accessToken;
  const refreshName = cookieNames.refreshToken(projectId);
  return {
    get(): TokenPair {
      const cookies = readCookies(document);
      return sanitizeTokenPair({ accessToken: cookies.get(accessName), refreshToken: cookies.get(refreshName) });
    },
    set(tokens: TokenPair): void {
      const clean = sanitizeTokenPair(tokens);
      writeCookie(document, accessName, clean.accessToken, constants.accessTokenCookieMaxAgeSeconds);
      writeCookie(document, refreshName, clean.refreshToken, constants.refreshTokenCookieMaxAgeSeconds);
    },
  };
}
