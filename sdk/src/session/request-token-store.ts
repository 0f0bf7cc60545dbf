import { headerNames, rebranded } from "../contract/headers.ts";
import { base64ToUtf8 } from "../runtime/base64.ts";
import { memoryTokenStore, sanitizeTokenPair, type TokenPair, type TokenStore } from "./token-store.ts";

/**
 * A request as a token store (sdk-surface.md §3, "request-like {headers}"): server code passes the incoming request
 * and the SDK reads the caller's tokens from it. Tokens refreshed while serving the request stay in memory only.
 */

type HeaderRecord = Record<string, string | string[] | undefined>;

export interface RequestLike {
  headers: { get(name: string): string | null } | HeaderRecord;
}

export function isRequestLike(value: unknown): value is RequestLike {
  if (typeof value !== "object" || value === null || !("headers" in value)) return false;
  const headers = (value as { headers: unknown }).headers;
  return typeof headers === "object" && headers !== null;
}

function headerGetter(req: RequestLike): (name: string) => string | null {
  const h = req.headers;
  if (typeof (h as { get?: unknown }).get === "function") {
    const withGet = h as { get(name: string): string | null };
    return (name) => withGet.get(name);
  }
  // Node's IncomingMessage style: lower-case keys, values possibly arrays.
  const record = h as HeaderRecord;
  return (name) => {
    const key = Object.keys(record).find((k) => k.toLowerCase() === name.toLowerCase());
    const value = key === undefined ? undefined : record[key];
    return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
  };
}

/** The JSON of getAuthJson(), as carried by `x-stack-auth` or `Authorization: Bearer stackauth_<base64>`. */
function parseAuthJson(text: string): Partial<TokenPair> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return {};
    const { accessToken, refreshToken } = value as Record<string, unknown>;
    return {
      accessToken: typeof accessToken === "string" ? accessToken : null,
      refreshToken: typeof refreshToken === "string" ? refreshToken : null,
    };
  } catch {
    return {};
  }
}

/** Base64 or base64url (cookies carry either), as UTF-8 text. */
const decodeBase64Utf8 = (b64: string): string => base64ToUtf8(b64.replace(/-/g, "+").replace(/_/g, "/"));

export function tokensFromRequest(req: RequestLike): TokenPair {
  const get = headerGetter(req);
  const either = (legacy: string) => get(rebranded(legacy)) ?? get(legacy);
  let tokens: Partial<TokenPair> = {
    accessToken: either(headerNames.accessToken),
    refreshToken: either(headerNames.refreshToken),
  };
  const authJson = get("x-stack-auth");
  if (!tokens.accessToken && authJson) tokens = { ...tokens, ...parseAuthJson(authJson) };
  const authorization = get("authorization");
  const bearer = authorization?.match(/^Bearer\s+(.+)$/i)?.[1]?.trim();
  if (!tokens.accessToken && bearer) {
    if (bearer.startsWith("stackauth_")) {
      try {
        tokens = { ...tokens, ...parseAuthJson(decodeBase64Utf8(bearer.slice("stackauth_".length))) };
      } catch {
        // Not base64: no tokens from this header.
      }
    } else {
      tokens = { ...tokens, accessToken: bearer };
    }
  }
  return sanitizeTokenPair(tokens);
}

export function requestTokenStore(req: RequestLike): TokenStore {
  return memoryTokenStore(tokensFromRequest(req));
}
