import { SignJWT, importJWK, decodeProtectedHeader, jwtVerify, errors as joseErrors, type JWTPayload, type JWK } from "jose";
import { accessTokenClaims, DEFAULT_BRANCH_ID, type AccessTokenClaims } from "@authsim/sdk/contract";
import { randomBase32, type RandomSource } from "@authsim/sdk/runtime";
import type { SigningKeyRecord, UserRecord } from "../store/records.ts";
import { es256KeyPair } from "./es256-key-pair.ts";
import type { Tables } from "../store/store.ts";

/**
 * ES256 access tokens with the full claim set of protocol.md §4.1 (the published SDK rejects a token missing one),
 * signed with per-audience-family keys kept in state and published in the JWKS.
 */
export type Audience = SigningKeyRecord["audience"];

export function audienceOf(user: Pick<UserRecord, "isAnonymous" | "restrictedByAdmin">): Audience {
  if (user.isAnonymous) return "anonymous";
  if (user.restrictedByAdmin) return "restricted";
  return "normal";
}

const audSuffix: Record<Audience, string> = { normal: "", anonymous: ":anon", restricted: ":restricted" };
const issuerPath: Record<Audience, string> = {
  normal: "projects",
  anonymous: "projects-anonymous-users",
  restricted: "projects-restricted-users",
};

export function issuerFor(apiBaseUrl: string, projectId: string, audience: Audience): string {
  return `${apiBaseUrl}/api/v1/${issuerPath[audience]}/${projectId}`;
}

/** Returns the signing key for an audience family, creating it on first use (inside the caller's transaction). */
export async function signingKey(tables: Tables, audience: Audience, random: RandomSource): Promise<SigningKeyRecord> {
  const existing = tables.signingKeys.get(audience);
  if (existing) return existing;
  const { privateJwk, publicJwk } = await es256KeyPair(random);
  const kid = randomBase32(random, 60).slice(0, 12);
  const record: SigningKeyRecord = {
    audience,
    kid,
    privateJwk: { ...privateJwk, kid, alg: "ES256" },
    publicJwk: { ...publicJwk, kid, alg: "ES256", use: "sig" },
  };
  tables.signingKeys.set(audience, record);
  return record;
}

export interface MintInput {
  apiBaseUrl: string;
  projectId: string;
  user: UserRecord;
  sessionId: string;
  nowMillis: number;
  lifetimeSeconds: number;
}

export function claimsFor(input: MintInput): AccessTokenClaims {
  const { user, projectId } = input;
  const audience = audienceOf(user);
  const iat = Math.floor(input.nowMillis / 1000);
  const isRestricted = user.isAnonymous || user.restrictedByAdmin;
  return accessTokenClaims.parse({
    sub: user.id,
    iat,
    exp: iat + input.lifetimeSeconds,
    iss: issuerFor(input.apiBaseUrl, projectId, audience),
    aud: projectId + audSuffix[audience],
    project_id: projectId,
    branch_id: DEFAULT_BRANCH_ID,
    refresh_token_id: input.sessionId,
    role: "authenticated",
    name: user.displayName,
    email: user.primaryEmail,
    email_verified: user.primaryEmailVerified,
    selected_team_id: user.selectedTeamId,
    signed_up_at: Math.floor(user.signedUpAtMillis / 1000),
    is_anonymous: user.isAnonymous,
    is_restricted: isRestricted,
    restricted_reason: user.isAnonymous
      ? { type: "anonymous" }
      : user.restrictedByAdmin
        ? { type: "restricted_by_administrator" }
        : null,
    requires_totp_mfa: user.totpSecretBase64 !== null,
  });
}

/**
 * Imported CryptoKeys by kid and JWK: importing costs more than signing, and the records are values that never change
 * under a kid (a restored snapshot brings the same JWK back, or a different kid).
 */
const importedKeys = new Map<string, Promise<CryptoKey | Uint8Array>>();
function importKey(kid: string, jwk: JWK, kind: "private" | "public"): Promise<CryptoKey | Uint8Array> {
  const cacheKey = `${kind}:${kid}:${jwk.x}:${jwk.y}`;
  let key = importedKeys.get(cacheKey);
  if (!key) {
    key = importJWK(jwk, "ES256");
    importedKeys.set(cacheKey, key);
  }
  return key;
}

export async function mintAccessToken(tables: Tables, random: RandomSource, input: MintInput): Promise<string> {
  const claims = claimsFor(input);
  const key = await signingKey(tables, audienceOf(input.user), random);
  const privateKey = await importKey(key.kid, key.privateJwk, "private");
  return new SignJWT(claims as unknown as JWTPayload).setProtectedHeader({ alg: "ES256", kid: key.kid }).sign(privateKey);
}

export type VerifyResult =
  | { ok: true; claims: AccessTokenClaims }
  | { ok: false; reason: "unparsable" }
  | { ok: false; reason: "expired"; expiredAtMillis: number | null };

/** Verifies signature, issuer family and expiry against the injected time. */
export async function verifyAccessToken(tables: Tables, token: string, nowMillis: number): Promise<VerifyResult> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return { ok: false, reason: "unparsable" };
  }
  const key = [...tables.signingKeys.values()].find((k) => k.kid === kid);
  if (!key) return { ok: false, reason: "unparsable" };
  try {
    const publicKey = await importKey(key.kid, key.publicJwk, "public");
    const { payload } = await jwtVerify(token, publicKey, { algorithms: ["ES256"], currentDate: new Date(nowMillis) });
    const claims = accessTokenClaims.safeParse(payload);
    if (!claims.success) return { ok: false, reason: "unparsable" };
    if (audSuffixOf(claims.data.aud) !== audSuffix[key.audience]) return { ok: false, reason: "unparsable" };
    return { ok: true, claims: claims.data };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      const exp = (error.payload as { exp?: unknown }).exp;
      return { ok: false, reason: "expired", expiredAtMillis: typeof exp === "number" ? exp * 1000 : null };
    }
    return { ok: false, reason: "unparsable" };
  }
}

function audSuffixOf(aud: string): string {
  const i = aud.indexOf(":");
  return i === -1 ? "" : aud.slice(i);
}

/** The project part of an `aud` claim ("<project>" or "<project>:anon"). */
export function projectOfAudience(aud: string): string {
  const i = aud.indexOf(":");
  return i === -1 ? aud : aud.slice(0, i);
}

/** JWKS of protocol.md §4.1: by default only normal users' keys. */
export async function jwks(
  tables: Tables,
  random: RandomSource,
  options: { includeRestricted: boolean; includeAnonymous: boolean },
): Promise<{ keys: JWK[] }> {
  const families: Audience[] = ["normal"];
  if (options.includeRestricted || options.includeAnonymous) families.push("restricted");
  if (options.includeAnonymous) families.push("anonymous");
  const keys: JWK[] = [];
  for (const family of families) keys.push((await signingKey(tables, family, random)).publicJwk);
  return { keys };
}
