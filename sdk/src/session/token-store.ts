import { isUsableTokenString } from "./access-token.ts";

/**
 * Where a session keeps its tokens (sdk-surface.md §3). The store is the source of truth: a Session reads it on every
 * call, so tokens changed elsewhere (another tab's cookies, a test) are seen at once.
 */

export interface TokenPair {
  accessToken: string | null;
  refreshToken: string | null;
}

/** A custom store: any object with get/set (also the shape every built-in store has). */
export interface TokenStore {
  get(): TokenPair;
  set(tokens: TokenPair): void;
}

/** The literal "undefined" (or an empty string) is never a token (spec §5). */
export function sanitizeTokenPair(tokens: Partial<TokenPair>): TokenPair {
  return {
    accessToken: isUsableTokenString(tokens.accessToken) ? tokens.accessToken : null,
    refreshToken: isUsableTokenString(tokens.refreshToken) ? tokens.refreshToken : null,
  };
}

export function memoryTokenStore(initial: Partial<TokenPair> = {}): TokenStore {
  let tokens = sanitizeTokenPair(initial);
  return {
    get: () => tokens,
    set: (next) => {
      tokens = sanitizeTokenPair(next);
    },
  };
}

/** `{accessToken, refreshToken}` given explicitly: held in memory, refreshed tokens replace them there. */
export function explicitTokenStore(tokens: TokenPair): TokenStore {
  return memoryTokenStore(tokens);
}

export function isTokenStore(value: unknown): value is TokenStore {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { get?: unknown }).get === "function" &&
    typeof (value as { set?: unknown }).set === "function"
  );
}

export function isExplicitTokens(value: unknown): value is TokenPair {
  return typeof value === "object" && value !== null && "accessToken" in value && "refreshToken" in value;
}
