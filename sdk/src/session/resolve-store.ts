import { cookieTokenStore, type CookieDocument } from "./cookie-store.ts";
import { isRequestLike, requestTokenStore, type RequestLike } from "./request-token-store.ts";
import {
  explicitTokenStore,
  isExplicitTokens,
  isTokenStore,
  memoryTokenStore,
  type TokenPair,
  type TokenStore,
} from "./token-store.ts";

/** The constructor/per-call `tokenStore` forms of sdk-surface.md §3, plus a custom {get, set} object. */
export type TokenStoreInit = "memory" | "cookie" | TokenPair | TokenStore | RequestLike | null;

/** The store for an init form; null means "no token store" (each call must then pass one). */
export function resolveTokenStore(init: TokenStoreInit, projectId: string, doc?: CookieDocument): TokenStore | null {
  if (init === null) return null;
  if (init === "memory") return memoryTokenStore();
  if (init === "cookie") return cookieTokenStore(projectId, doc);
  if (isTokenStore(init)) return init;
  if (isExplicitTokens(init)) return explicitTokenStore(init);
  if (isRequestLike(init)) return requestTokenStore(init);
  throw new Error(`Unsupported tokenStore: ${JSON.stringify(init)}`);
}
