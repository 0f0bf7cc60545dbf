import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import type { AccessTokenClaims } from "../contract/areas/sessions.ts";

/** Access tokens for tests, with the full claim set of protocol.md §4.1. */

export const TEST_PROJECT_ID = "internal";
export const TEST_USER_ID = "3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b";

export function claims(
  nowMillis: number,
  lifeMillis: number,
  overrides: Partial<AccessTokenClaims> = {},
): AccessTokenClaims {
  const iat = Math.floor(nowMillis / 1000);
  return {
    sub: TEST_USER_ID,
    iat,
    exp: Math.floor((nowMillis + lifeMillis) / 1000),
    iss: `http://localhost:8102/api/v1/projects/${TEST_PROJECT_ID}`,
    aud: TEST_PROJECT_ID,
    project_id: TEST_PROJECT_ID,
    branch_id: "main",
    refresh_token_id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    role: "authenticated",
    name: null,
    email: "ada@example.com",
    email_verified: true,
    selected_team_id: null,
    signed_up_at: iat,
    is_anonymous: false,
    is_restricted: false,
    restricted_reason: null,
    requires_totp_mfa: false,
    ...overrides,
  };
}

export interface TestSigner {
  jwks: { keys: JWK[] };
  sign(claims: AccessTokenClaims): Promise<string>;
}

export async function testSigner(kid = "test-key-001"): Promise<TestSigner> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256" };
  return {
    jwks: { keys: [jwk] },
    sign: (c) => new SignJWT({ ...c }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey),
  };
}

/** An unsigned-looking token: the SDK only decodes client-side, so any signature works for session tests. */
export function unsignedToken(c: Record<string, unknown>): string {
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url");
  return `${enc({ alg: "ES256", kid: "x" })}.${enc(c)}.c2ln`;
}
