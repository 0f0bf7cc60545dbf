import fc from "fast-check";
import { base64ToBytes, bytesToBase64 } from "../runtime/base64.ts";
import { describe, expect, it } from "vitest";
import { constants } from "../contract/headers.ts";
import { seededRandom } from "../runtime/ids.ts";
import {
  DATA_VAULT_DECRYPTION_FAILED_MESSAGE,
  DataVaultDecryptionError,
  decryptVaultValue,
  encryptVaultValue,
  hashVaultKey,
  vaultEntry,
} from "./data-vault.ts";

/**
 * The data vault's client-side encryption (spec §9; the decryption message of spec §8). PBKDF2 with 100000 iterations
 * makes each derivation cost milliseconds, so the properties run a few dozen cases each; fast-check shrinks a failure.
 */

// Arbitrary Unicode (any code point except lone surrogate halves, which UTF-8 cannot carry).
const text = (maxLength: number) => fc.string({ unit: "binary", maxLength });
const random = seededRandom("data-vault-tests");
/** Each case derives a key with 100000 PBKDF2 iterations; a loaded machine needs more than vitest's default 5 s. */
const PROPERTY_TIMEOUT = 60_000;

async function expectDecryptionFailure(promise: Promise<unknown>): Promise<void> {
  const error: unknown = await promise.then(
    () => new Error("decryption unexpectedly succeeded"),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DataVaultDecryptionError);
  expect((error as Error).message).toBe(
    "Data vault client-side decryption failed. Are you sure you're using the correct secret?",
  );
}

describe("data vault encryption (properties)", () => {
  it(
    "decrypts what it encrypted, for any key, value and secret",
    async () => {
      await fc.assert(
        fc.asyncProperty(text(40), text(200), text(40), async (key, value, secret) => {
          const entry = await vaultEntry(secret, key);
          expect(await entry.decrypt(await entry.encrypt(value, random))).toBe(value);
        }),
        { numRuns: 30 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "never reveals a value to another secret: decryption fails with spec §8's exact message",
    async () => {
      await fc.assert(
        fc.asyncProperty(text(30), text(60), text(30), text(30), async (key, value, secret, other) => {
          fc.pre(secret !== other);
          const [right, wrong] = [await vaultEntry(secret, key), await vaultEntry(other, key)];
          await expectDecryptionFailure(wrong.decrypt(await right.encrypt(value, random)));
          // Another secret also hashes the key differently, so the server would not even find the value.
          expect(wrong.hashedKey).not.toBe(right.hashedKey);
        }),
        { numRuns: 20 },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    "seals equal values differently each time (fresh salt and iv)",
    async () => {
      await fc.assert(
        fc.asyncProperty(text(30), text(60), text(30), async (key, value, secret) => {
          const entry = await vaultEntry(secret, key);
          const [a, b] = [await entry.encrypt(value, random), await entry.encrypt(value, random)];
          expect(a).not.toBe(b);
          expect(await entry.decrypt(a)).toBe(value);
          expect(await entry.decrypt(b)).toBe(value);
        }),
        { numRuns: 20 },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe("data vault encryption (format)", () => {
  it("lays out version bytes [1, 0], a 16-byte salt, a 12-byte iv, then AES-GCM's ciphertext and 16-byte tag", async () => {
    expect(constants.dataVault).toMatchObject({
      algorithm: "AES-GCM",
      keyBits: 256,
      ivBytes: 12,
      saltBytes: 16,
      versionBytes: [1, 0],
      pbkdf2Iterations: 100_000,
      derivedBits: 256,
    });
    const value = "héllo wörld";
    const bytes = base64ToBytes(await encryptVaultValue("s3cret", "key", value, random));
    expect([...bytes.slice(0, 2)]).toEqual([1, 0]);
    expect(bytes.length).toBe(2 + 16 + 12 + new TextEncoder().encode(value).length + 16);
  });

  it("hashes a key to 32 bytes of base64, the same for the same secret, and without the key in it", async () => {
    const hashed = await hashVaultKey("s3cret", "user-42-api-token");
    expect(hashed).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(base64ToBytes(hashed)).toHaveLength(32);
    expect(await hashVaultKey("s3cret", "user-42-api-token")).toBe(hashed);
    expect(await hashVaultKey("s3cret", "user-43-api-token")).not.toBe(hashed);
    expect(hashed).not.toContain("user-42");
  });

  it("refuses a value sealed under another key, tampered with, truncated, of another version or not base64", async () => {
    const sealed = await encryptVaultValue("s3cret", "key", "value", random);
    await expectDecryptionFailure(decryptVaultValue("s3cret", "other-key", sealed));
    const bytes = base64ToBytes(sealed);
    const flipped = bytes.slice();
    flipped[bytes.length - 1] = flipped[bytes.length - 1]! ^ 1;
    await expectDecryptionFailure(decryptVaultValue("s3cret", "key", bytesToBase64(flipped)));
    await expectDecryptionFailure(decryptVaultValue("s3cret", "key", bytesToBase64(bytes.slice(0, 40))));
    const otherVersion = bytes.slice();
    otherVersion[0] = 2;
    await expectDecryptionFailure(decryptVaultValue("s3cret", "key", bytesToBase64(otherVersion)));
    await expectDecryptionFailure(decryptVaultValue("s3cret", "key", "not base64!"));
    expect(DATA_VAULT_DECRYPTION_FAILED_MESSAGE).toBe(
      "Data vault client-side decryption failed. Are you sure you're using the correct secret?",
    );
  });

  it("says 'secret must be a string' for any other secret", async () => {
    await expect(vaultEntry(42 as unknown as string, "key")).rejects.toThrow(new TypeError("secret must be a string"));
  });

  it("encodes long values in base64 without overflowing the call stack", async () => {
    const long = "x".repeat(200_000);
    const entry = await vaultEntry("s", "k");
    expect(await entry.decrypt(await entry.encrypt(long, random))).toBe(long);
  });
});
