import { constants } from "../contract/headers.ts";
import { base64ToBytes, bytesToBase64 } from "../runtime/base64.ts";
import type { RandomSource } from "../runtime/ids.ts";

/**
 * Client-side encryption of the data vault (spec §9, §5, §8), with Web Crypto only. The server receives a hashed key
 * and a ciphertext; neither the plaintext, the key nor the secret ever leave the caller.
 *
 * The format is the published SDK's (so a value written by one is read by the other):
 * - a vault key: PBKDF2-SHA256 of the key, salted with (purpose, secret), 100000 iterations, 256 bits (spec §9);
 * - the hashed key sent to the server: one more PBKDF2 round of the vault key under another purpose, base64;
 * - the value: AES-GCM 256 under a key HKDF-derived from the vault key and a random 16-byte salt, with a random
 *   12-byte iv; sent as base64 of version bytes [1, 0] ‖ salt ‖ iv ‖ ciphertext.
 * Because the hashed key depends on the secret, a wrong secret finds nothing (the store answers "no such key").
 */

export const DATA_VAULT_DECRYPTION_FAILED_MESSAGE =
  "Data vault client-side decryption failed. Are you sure you're using the correct secret?";
export const SECRET_MUST_BE_A_STRING_MESSAGE = "secret must be a string";

/** The stored value could not be decrypted: wrong secret or key, or a tampered/foreign ciphertext (spec §8). */
export class DataVaultDecryptionError extends Error {
  override readonly name = "DataVaultDecryptionError";
  constructor(cause?: unknown) {
    super(DATA_VAULT_DECRYPTION_FAILED_MESSAGE, { cause });
  }
}

const { saltBytes, ivBytes, versionBytes, pbkdf2Iterations, derivedBits, keyBits, algorithm } = constants.dataVault;
const HEADER_BYTES = versionBytes.length + saltBytes + ivBytes;

// Purposes of the published format: each derivation is bound to what it is for.
const KEY_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-key-hash";
const HASH_PURPOSE = "stack-data-vault-client-side-encryption-key-hash";
const VALUE_PURPOSE = "stack-data-vault-client-side-encryption-value-encryption-value-encryption";

const utf8 = (s: string): Uint8Array<ArrayBuffer> => new TextEncoder().encode(s);

/** PBKDF2-SHA256 of `value`, salted with the JSON of (tag, purpose, "", base64 of `extra`). */
async function iteratedHash(
  value: Uint8Array<ArrayBuffer>,
  purpose: string,
  extra: string,
  iterations: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const material = await crypto.subtle.importKey("raw", value, "PBKDF2", false, ["deriveBits"]);
  const salt = utf8(JSON.stringify(["stack-crypto-helper-iterated-hash", purpose, "", bytesToBase64(utf8(extra))]));
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: "PBKDF2", salt, iterations, hash: "SHA-256" }, material, derivedBits),
  );
}

async function valueKey(vaultKey: Uint8Array<ArrayBuffer>, salt: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", vaultKey, "HKDF", false, ["deriveKey"]);
  const info = utf8(
    JSON.stringify(["stack-crypto-helper-derived-symmetric-key", VALUE_PURPOSE, "binary-key", bytesToBase64(salt)]),
  );
  return crypto.subtle.deriveKey(
    { name: "HKDF", salt, info, hash: "SHA-256" },
    material,
    { name: algorithm, length: keyBits },
    false,
    ["encrypt", "decrypt"],
  );
}

function randomBytes(random: RandomSource, length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(length);
  out.set(random.bytes(length).subarray(0, length));
  return out;
}

/** One key under one secret: the expensive derivation happens once, then hash, encrypt and decrypt reuse it. */
export interface VaultEntryCrypto {
  readonly hashedKey: string;
  encrypt(value: string, random: RandomSource): Promise<string>;
  decrypt(encryptedValue: string): Promise<string>;
}

export async function vaultEntry(secret: string, key: string): Promise<VaultEntryCrypto> {
  if (typeof secret !== "string") throw new TypeError(SECRET_MUST_BE_A_STRING_MESSAGE);
  const vaultKey = await iteratedHash(utf8(key), KEY_PURPOSE, secret, pbkdf2Iterations);
  const hashedKey = bytesToBase64(await iteratedHash(vaultKey, HASH_PURPOSE, secret, 1));
  return {
    hashedKey,
    async encrypt(value, random) {
      const salt = randomBytes(random, saltBytes);
      const iv = randomBytes(random, ivBytes);
      const cipher = new Uint8Array(
        await crypto.subtle.encrypt({ name: algorithm, iv }, await valueKey(vaultKey, salt), utf8(value)),
      );
      const out = new Uint8Array(HEADER_BYTES + cipher.length);
      out.set(versionBytes, 0);
      out.set(salt, versionBytes.length);
      out.set(iv, versionBytes.length + saltBytes);
      out.set(cipher, HEADER_BYTES);
      return bytesToBase64(out);
    },
    async decrypt(encryptedValue) {
      let bytes: Uint8Array<ArrayBuffer>;
      try {
        bytes = base64ToBytes(encryptedValue);
      } catch (e) {
        throw new DataVaultDecryptionError(e);
      }
      // Too short for a header and a GCM tag, or another format version: not something this secret sealed.
      if (bytes.length < HEADER_BYTES + 16 || versionBytes.some((b, i) => bytes[i] !== b))
        throw new DataVaultDecryptionError();
      const salt = bytes.slice(versionBytes.length, versionBytes.length + saltBytes);
      const iv = bytes.slice(versionBytes.length + saltBytes, HEADER_BYTES);
      try {
        const plain = await crypto.subtle.decrypt(
          { name: algorithm, iv },
          await valueKey(vaultKey, salt),
          bytes.slice(HEADER_BYTES),
        );
        return new TextDecoder("utf-8", { fatal: true }).decode(plain);
      } catch (e) {
        throw new DataVaultDecryptionError(e);
      }
    },
  };
}

/** The hashed key the server stores a value under. */
export async function hashVaultKey(secret: string, key: string): Promise<string> {
  return (await vaultEntry(secret, key)).hashedKey;
}

export async function encryptVaultValue(
  secret: string,
  key: string,
  value: string,
  random: RandomSource,
): Promise<string> {
  return (await vaultEntry(secret, key)).encrypt(value, random);
}

/** Throws DataVaultDecryptionError (spec §8's exact message) when the value was not sealed with this secret and key. */
export async function decryptVaultValue(secret: string, key: string, encryptedValue: string): Promise<string> {
  return (await vaultEntry(secret, key)).decrypt(encryptedValue);
}
