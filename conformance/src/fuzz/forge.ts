import { SignJWT, base64url, decodeJwt, decodeProtectedHeader, generateKeyPair, type JWTPayload } from "jose";

/**
 * Forged access tokens for the fuzzer and the security suite (protocol.md §4.1): each keeps enough of a real token
 * (its kid, its claims) that only a verifier that really checks signature, algorithm and expiry refuses it.
 */

const encoder = new TextEncoder();
const segment = (value: unknown) => base64url.encode(encoder.encode(JSON.stringify(value)));

function split(token: string): [string, string, string] {
  const [header = "", payload = "", signature = ""] = token.split(".");
  return [header, payload, signature];
}

/** The same header and signature over changed claims: a signature check must fail. */
export function tamper(token: string, patch: Record<string, unknown>): string {
  const [header, , signature] = split(token);
  return `${header}.${segment({ ...decodeJwt(token), ...patch })}.${signature}`;
}

/** `alg: none` with the real kid and claims, and no signature (the classic downgrade). */
export function algNone(token: string, patch: Record<string, unknown> = {}): string {
  const { kid } = decodeProtectedHeader(token);
  return `${segment({ alg: "none", typ: "JWT", ...(kid ? { kid } : {}) })}.${segment({ ...decodeJwt(token), ...patch })}.`;
}

/** Properly signed, but with a key pair of our own under the provider's kid. */
export async function resign(token: string, patch: Record<string, unknown> = {}): Promise<string> {
  const { kid } = decodeProtectedHeader(token);
  const { privateKey } = await generateKeyPair("ES256");
  return new SignJWT({ ...decodeJwt(token), ...patch } as JWTPayload)
    .setProtectedHeader({ alg: "ES256", ...(kid ? { kid } : {}) })
    .sign(privateKey);
}

/** HS256 keyed with public material (the published JWK): the algorithm-confusion attack. */
export async function hmacConfused(token: string, secret: string): Promise<string> {
  const { kid } = decodeProtectedHeader(token);
  return new SignJWT(decodeJwt(token) as JWTPayload)
    .setProtectedHeader({ alg: "HS256", ...(kid ? { kid } : {}) })
    .sign(encoder.encode(secret));
}

/** Header and claims of one token with the signature of another (both genuine). */
export function spliceSignature(claimsFrom: string, signatureFrom: string): string {
  const [header, payload] = split(claimsFrom);
  return `${header}.${payload}.${split(signatureFrom)[2]}`;
}

/** Token-shaped and not-at-all token-shaped garbage. */
export const garbageTokens: readonly string[] = [
  "garbage",
  "a.b.c",
  "..",
  "Bearer x",
  `${segment({ alg: "ES256" })}.${segment({})}.`,
  `${segment({ alg: "ES256", kid: "../../etc" })}.${segment({ sub: "x" })}.AAAA`,
  `${segment("not an object")}.${segment([1, 2])}.x`,
  "eyJhbGciOiJub25lIn0.e30.",
  "x".repeat(10_000),
];
