import { decodeJwt } from "jose";
import { accessTokenClaims, type AccessTokenClaims } from "../contract/areas/sessions.ts";

/**
 * Client-side reading of access tokens (protocol.md §4.1): decoded, not verified, and validated against the claim set
 * the published SDK requires. A token that fails is treated as absent ("invalid tokens are dropped").
 */

export interface DecodedAccessToken {
  token: string;
  claims: AccessTokenClaims;
  /** From `exp`; null when the token carries no expiry. */
  expiresAtMillis: number | null;
}

/** spec §5: an access token string must not be the literal 'undefined' (a stringified missing value). */
export function isUsableTokenString(token: unknown): token is string {
  return typeof token === "string" && token.length > 0 && token !== "undefined";
}

export function decodeAccessToken(token: string | null | undefined): DecodedAccessToken | null {
  if (!isUsableTokenString(token)) return null;
  let payload: unknown;
  try {
    payload = decodeJwt(token);
  } catch {
    return null;
  }
  const parsed = accessTokenClaims.safeParse(payload);
  if (!parsed.success) return null;
  const exp = parsed.data.exp;
  return { token, claims: parsed.data, expiresAtMillis: exp === undefined ? null : exp * 1000 };
}

/** Milliseconds of life left at `nowMillis` (Infinity without `exp`). */
export function remainingMillis(decoded: DecodedAccessToken, nowMillis: number): number {
  return decoded.expiresAtMillis === null ? Number.POSITIVE_INFINITY : decoded.expiresAtMillis - nowMillis;
}

/** Only the expiry, for tokens that need not carry the full user claim set (admin access tokens). */
export function tokenExpiryMillis(token: string): number | null {
  try {
    const { exp } = decodeJwt(token);
    return typeof exp === "number" ? exp * 1000 : null;
  } catch {
    return null;
  }
}
