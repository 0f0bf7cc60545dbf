import bcrypt from "bcryptjs";
import { base64ToBytes, bytesToBase64, type RandomSource } from "@authsim/sdk/runtime";
import { knownError } from "../errors/known-error.ts";
import { constantTimeEqual } from "./compare.ts";
import type { CryptoBackend } from "./crypto-backend.ts";
import { defaultCryptoBackend } from "./default-crypto.ts";

/**
 * Salted PBKDF2-SHA256 (through the crypto backend: Web Crypto, or what a server injects), its parameters stored with
 * each hash ("pbkdf2-sha256$iter$salt$hash"). The iteration count only makes guessing slower, which protects nothing
 * in an emulator whose passwords are test fixtures, so it defaults to 10 iterations: still a salted hash, and a wrong
 * password still fails, but a sign-in no longer spends most of its time hashing (1,000 iterations were two thirds of
 * the dev server's CPU per sign-in). `--hash-cost production` uses 600,000 (OWASP's figure for PBKDF2-SHA256), to see
 * the real latency. A stored hash keeps its own count, so either verifies the other.
 */
export const hashCosts = { fast: 10, production: 600_000 } as const;
export type HashCost = keyof typeof hashCosts;

/** Password length rules (the wire reports the limit in details). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 70;

export function checkPasswordRules(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH)
    throw knownError("PASSWORD_TOO_SHORT", { min_length: PASSWORD_MIN_LENGTH });
  if (password.length > PASSWORD_MAX_LENGTH) throw knownError("PASSWORD_TOO_LONG", { maxLength: PASSWORD_MAX_LENGTH });
}

export async function hashPassword(
  password: string,
  random: RandomSource,
  iterations: number,
  backend: CryptoBackend = defaultCryptoBackend,
): Promise<string> {
  const salt = random.bytes(16);
  const hash = await backend.pbkdf2Sha256(password, salt, iterations);
  // Joined, not a template: the template's pieces would stay in memory as a tree of concatenations for as long as the
  // user exists (about 0.3 KiB a user), where join builds the one flat string.
  return ["pbkdf2-sha256", iterations, bytesToBase64(salt), bytesToBase64(hash)].join("$");
}

/**
 * The most iterations a stored hash may ask for. A server may import any `password_hash` (POST /users), so the stored
 * parameters are untrusted: past 2^32 Web Crypto throws (every sign-in of that user was a 500), and a few billion
 * would hold the emulator for minutes. Ten times the production cost still verifies in well under a few seconds.
 */
export const MAX_HASH_ITERATIONS = 10 * hashCosts.production;

function decodeB64(text: string): Uint8Array | null {
  try {
    return base64ToBytes(text);
  } catch {
    return null;
  }
}

/** bcrypt in Modular Crypt Format, as a server may import it (POST /users password_hash), cost at most 16. */
const BCRYPT_HASH = /^\$2[aby]\$(\d{2})\$[./A-Za-z0-9]{53}$/;
export const MAX_BCRYPT_COST = 16;

/**
 * True when `stored` is a hash of `password`: the emulator's PBKDF2, or an imported bcrypt hash (checked with
 * bcryptjs, plain JavaScript, as the real service verifies its imported hashes). A malformed or out-of-range stored
 * hash matches nothing.
 */
export async function verifyPassword(
  password: string,
  stored: string,
  backend: CryptoBackend = defaultCryptoBackend,
): Promise<boolean> {
  const bcryptCost = BCRYPT_HASH.exec(stored)?.[1];
  if (bcryptCost !== undefined)
    return Number(bcryptCost) <= MAX_BCRYPT_COST && (await bcrypt.compare(password, stored));
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iterationsText || !saltText || !hashText) return false;
  const iterations = Number(iterationsText);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_HASH_ITERATIONS) return false;
  const salt = decodeB64(saltText);
  const expected = decodeB64(hashText);
  if (!salt || !expected) return false;
  const actual = await backend.pbkdf2Sha256(password, salt, iterations);
  return constantTimeEqual(actual, expected);
}

/**
 * A hash to compare against when the user does not exist, at the configured cost, so a miss costs what a hit costs
 * (with `--hash-cost production` a fixed cheap dummy would reveal by timing which emails have accounts).
 */
export function dummyHash(iterations: number): string {
  return `pbkdf2-sha256$${iterations}$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=`;
}
