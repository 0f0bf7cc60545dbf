import type { JWK } from "jose";
import { accessTokenClaims, DEFAULT_BRANCH_ID, type AccessTokenClaims } from "@authsim/sdk/contract";
import { randomBase32, type RandomSource } from "@authsim/sdk/runtime";
import type { SigningKeyRecord, UserRecord } from "../store/records.ts";
import { es256KeyPair } from "./es256-key-pair.ts";
import type { CryptoBackend } from "./crypto-backend.ts";
import { defaultCryptoBackend } from "./default-crypto.ts";
import { base64UrlToBytes, base64UrlToText, bytesToBase64Url, textToBase64Url } from "./base64url.ts";
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
    standbyPublicJwk: await standbyKey(random),
  };
  tables.signingKeys.set(audience, record);
  return record;
}

/** A fresh public key for the next rotation (SigningKeyRecord.standbyPublicJwk); its private half is not kept. */
async function standbyKey(random: RandomSource): Promise<JWK> {
  const { publicJwk } = await es256KeyPair(random);
  return { ...publicJwk, kid: randomBase32(random, 60).slice(0, 12), alg: "ES256", use: "sig" };
}

/** An audience family's published keys: the signing key, then its standby (made now for state saved without one). */
async function publishedKeys(tables: Tables, audience: Audience, random: RandomSource): Promise<JWK[]> {
  let record = await signingKey(tables, audience, random);
  if (!record.standbyPublicJwk) {
    record = { ...record, standbyPublicJwk: await standbyKey(random) };
    tables.signingKeys.set(audience, record);
  }
  return [publishedJwk(record.publicJwk), publishedJwk(record.standbyPublicJwk!)];
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
  // Built to the contract's type; the schema checks tokens coming back (verifyAccessToken), not every mint.
  return {
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
  };
}

/**
 * The compact JWS header of a key, encoded once per record: it is the same for every token the key signs.
 */
const encodedHeaders = new WeakMap<SigningKeyRecord, string>();
function encodedHeader(key: SigningKeyRecord): string {
  let header = encodedHeaders.get(key);
  if (header === undefined) {
    header = textToBase64Url(JSON.stringify({ alg: "ES256", kid: key.kid }));
    encodedHeaders.set(key, header);
  }
  return header;
}

/**
 * An access token decided inside a transaction — its claims and its key fixed from the state the operation saw — and
 * signed once the transaction has committed. A signature is pure work that reads no state, so it need not hold the
 * store's lock: under load, every request's signature waited for that lock while the main thread did nothing but sign
 * (a third of its time in a refresh). Operations put it in their answer's `access_token`; the mount (and any other
 * caller of an operation that answers one) signs it with `signAccessToken` after `runOp`.
 */
export class UnsignedAccessToken {
  constructor(
    /** The compact JWS's first two parts: the key's header and the claims. */
    readonly signingInput: string,
    readonly privateJwk: JWK,
  ) {}
}

/** An answer whose `access_token` is still to be signed (the answer types of the operations that mint one). */
export type WithUnsignedToken<T extends { access_token: string }> = Omit<T, "access_token"> & {
  access_token: UnsignedAccessToken;
};

/** The claims and key of a token for this user and session, now (creating the audience's key on its first use). */
export async function unsignedAccessToken(
  tables: Tables,
  random: RandomSource,
  input: MintInput,
): Promise<UnsignedAccessToken> {
  const claims = claimsFor(input);
  const key = await signingKey(tables, audienceOf(input.user), random);
  return new UnsignedAccessToken(`${encodedHeader(key)}.${textToBase64Url(JSON.stringify(claims))}`, key.privateJwk);
}

/**
 * The compact ES256 JWS (RFC 7515): the same bytes jose's SignJWT would produce, signed through the crypto backend
 * (domain/auth/crypto-backend.ts).
 */
export async function signAccessToken(
  token: UnsignedAccessToken,
  backend: CryptoBackend = defaultCryptoBackend,
): Promise<string> {
  return `${token.signingInput}.${bytesToBase64Url(await backend.signEs256(token.privateJwk, token.signingInput))}`;
}

/** Whether an answer has an access token still to sign (most answers have none, and need no turn of the event loop). */
export function holdsUnsignedToken(answer: unknown): answer is { access_token: UnsignedAccessToken } {
  return (
    typeof answer === "object" &&
    answer !== null &&
    (answer as { access_token?: unknown }).access_token instanceof UnsignedAccessToken
  );
}

export type VerifyResult =
  | { ok: true; claims: AccessTokenClaims }
  | { ok: false; reason: "unparsable" }
  | { ok: false; reason: "expired"; expiredAtMillis: number | null };

/**
 * Tokens whose signature and claims were verified, by key record and token text. A signature stays valid for as long
 * as its key record exists (the record never changes; a restored or reset state brings new records, so their tokens
 * are verified afresh and the old entries go with the old record). Only expiry depends on the time, and is checked on
 * every use. Bounded per key: the oldest entries go first.
 */
const VERIFIED_PER_KEY = 1_000;
const verified = new WeakMap<SigningKeyRecord, Map<string, AccessTokenClaims>>();

function remember(key: SigningKeyRecord, token: string, claims: AccessTokenClaims): void {
  let tokens = verified.get(key);
  if (!tokens) {
    tokens = new Map();
    verified.set(key, tokens);
  }
  if (tokens.size >= VERIFIED_PER_KEY) tokens.delete(tokens.keys().next().value!);
  // Every request holding the token reads the same object: frozen, so no caller can change it for the next one.
  if (claims.restricted_reason) Object.freeze(claims.restricted_reason);
  tokens.set(token, Object.freeze(claims));
}

/** Expiry against the injected time, as jose's check has it: a token is expired from its `exp` second on. */
function checkExpiry(claims: AccessTokenClaims, nowMillis: number): VerifyResult {
  if (claims.exp !== undefined && claims.exp <= Math.floor(nowMillis / 1000))
    return { ok: false, reason: "expired", expiredAtMillis: claims.exp * 1000 };
  return { ok: true, claims };
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Verifies signature, issuer family and expiry against the injected time. */
export async function verifyAccessToken(
  tables: Tables,
  token: string,
  nowMillis: number,
  backend: CryptoBackend = defaultCryptoBackend,
): Promise<VerifyResult> {
  const parts = token.split(".");
  if (parts.length !== 3) return { ok: false, reason: "unparsable" };
  const [headerText, payloadText, signatureText] = parts as [string, string, string];
  const header = parseJson(base64UrlToText(headerText));
  // The only header this emulator writes; `crit` names extensions it would have to understand, so it refuses them.
  if (!isObject(header) || header.alg !== "ES256" || typeof header.kid !== "string" || "crit" in header)
    return { ok: false, reason: "unparsable" };
  let key: SigningKeyRecord | undefined;
  for (const k of tables.signingKeys.values()) {
    if (k.kid === header.kid) {
      key = k;
      break;
    }
  }
  if (!key) return { ok: false, reason: "unparsable" };
  const known = verified.get(key)?.get(token);
  if (known) return checkExpiry(known, nowMillis);
  const signature = base64UrlToBytes(signatureText);
  if (!signature || signature.length !== 64) return { ok: false, reason: "unparsable" };
  let valid: boolean;
  try {
    valid = await backend.verifyEs256(key.publicJwk, `${headerText}.${payloadText}`, signature);
  } catch {
    valid = false;
  }
  if (!valid) return { ok: false, reason: "unparsable" };
  const payload = parseJson(base64UrlToText(payloadText));
  if (!isObject(payload)) return { ok: false, reason: "unparsable" };
  // The registered time claims, checked as jose's jwtVerify checks them (no clock tolerance).
  const nowSeconds = Math.floor(nowMillis / 1000);
  if (payload.iat !== undefined && typeof payload.iat !== "number") return { ok: false, reason: "unparsable" };
  if (payload.nbf !== undefined && (typeof payload.nbf !== "number" || payload.nbf > nowSeconds))
    return { ok: false, reason: "unparsable" };
  if (payload.exp !== undefined && typeof payload.exp !== "number") return { ok: false, reason: "unparsable" };
  if (typeof payload.exp === "number" && payload.exp <= nowSeconds)
    return { ok: false, reason: "expired", expiredAtMillis: payload.exp * 1000 };
  const claims = accessTokenClaims.safeParse(payload);
  if (!claims.success) return { ok: false, reason: "unparsable" };
  if (audSuffixOf(claims.data.aud) !== audSuffix[key.audience]) return { ok: false, reason: "unparsable" };
  // A `nbf` would make validity depend on the time in a second way: such a token (never one this emulator mints) is
  // verified every time.
  if (payload.nbf === undefined) remember(key, token, claims.data);
  return { ok: true, claims: claims.data };
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

/** The members of a published key, as the real service lists them (no `use`, never a private part). */
const publishedJwk = (jwk: JWK): JWK => ({
  kty: jwk.kty,
  alg: jwk.alg,
  crv: jwk.crv,
  x: jwk.x,
  y: jwk.y,
  kid: jwk.kid,
});

/** JWKS of protocol.md §4.1: by default only normal users' keys; two per family, the signing one first. */
export async function jwks(
  tables: Tables,
  random: RandomSource,
  options: { includeRestricted: boolean; includeAnonymous: boolean },
): Promise<{ keys: JWK[] }> {
  const families: Audience[] = ["normal"];
  if (options.includeRestricted || options.includeAnonymous) families.push("restricted");
  if (options.includeAnonymous) families.push("anonymous");
  const keys: JWK[] = [];
  for (const family of families) keys.push(...(await publishedKeys(tables, family, random)));
  return { keys };
}
