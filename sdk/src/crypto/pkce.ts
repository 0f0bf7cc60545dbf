import { base64url } from "jose";
import type { RandomSource } from "../runtime/ids.ts";

/** PKCE with S256 (RFC 7636; spec §9 "OAuth: PKCE method S256") and the OAuth state, from the injected random source. */

/** RFC 7636 §4.1: 32 random bytes make a 43-character verifier. */
export function createCodeVerifier(random: RandomSource): string {
  return base64url.encode(random.bytes(32));
}

/** RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export async function s256CodeChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url.encode(new Uint8Array(digest));
}

export function createOAuthState(random: RandomSource): string {
  return base64url.encode(random.bytes(24));
}
