import { base64ToBytes } from "@authsim/sdk/runtime";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { inProcessTarget } from "../targets.ts";
import { useConformanceCatalogue } from "../suites/payments-support.ts";
import { serverApp } from "../suites/support.ts";

/**
 * The data vault round trip through the provider (spec §3 "Data vault store", §8, §9), where sdk/src/crypto's
 * properties test the crypto alone: random values under random keys go through the SDK's server API into the
 * in-process fake and come back equal; another secret finds nothing (the hashed key depends on the secret, so the
 * store answers "hashed key does not exist" and getValue is null, spec §8); and the provider holds neither the value,
 * the key nor the secret — only a base64 ciphertext as long as the format says (spec §9: version bytes, 16-byte salt,
 * 12-byte iv, the UTF-8 value, the 16-byte GCM tag). Every set and get derives a key with 100000 PBKDF2 iterations,
 * so the run count is modest.
 */
const STORE = "conformance";
const HEADER_AND_TAG_BYTES = 2 + 16 + 12 + 16;
const utf8 = new TextEncoder();

// Any code point but lone surrogate halves (UTF-8 cannot carry them; the SDK's values are well-formed strings).
const unicode = (maxLength: number) => fc.string({ unit: "binary", maxLength });
const value = fc.oneof(
  fc.constant(""),
  unicode(120),
  fc.json({ maxDepth: 3 }),
  // Large: a random unit repeated whole (never cut in the middle of a surrogate pair), up to ~150k UTF-16 units.
  fc
    .tuple(fc.string({ unit: "binary", minLength: 1, maxLength: 6 }), fc.integer({ min: 4_000, max: 12_000 }))
    .map(([unit, n]) => unit.repeat(n)),
);
const secrets = fc.tuple(unicode(24), unicode(24)).filter(([secret, other]) => secret !== other);

function bytesContain(haystack: Uint8Array, needle: Uint8Array): boolean {
  if (needle.length === 0) return true;
  outer: for (let i = 0; i + needle.length <= haystack.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

/** How often `needle` occurs in `text` (a plaintext may legitimately appear in the seeded state, e.g. "true"). */
const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe("property: the data vault round trip through the provider (spec §3, §8, §9)", () => {
  it("gives back any value set under any key, finds nothing for another secret, and never holds the plaintext", async () => {
    await fc.assert(
      fc.asyncProperty(unicode(40), value, secrets, async (key, plain, [secret, otherSecret]) => {
        // A fresh provider per run: the vault holds exactly this run's entry.
        const target = inProcessTarget();
        await useConformanceCatalogue(target);
        const store = await serverApp(target).getDataVaultStore(STORE);
        const before = JSON.stringify(target.provider.snapshot());

        await store.setValue(key, plain, { secret });
        expect(await store.getValue(key, { secret })).toBe(plain);
        expect(await store.getValue(key, { secret: otherSecret })).toBeNull();

        const entries = [...target.provider.store.read.dataVaultEntries.values()];
        expect(entries).toHaveLength(1);
        const stored = base64ToBytes(entries[0]!.encryptedValue);
        const plainBytes = utf8.encode(plain);
        expect(stored.length).toBe(HEADER_AND_TAG_BYTES + plainBytes.length);
        // Below 8 bytes a random ciphertext could contain the plaintext by chance.
        if (plainBytes.length >= 8) expect(bytesContain(stored, plainBytes)).toBe(false);

        // Nowhere in the provider's whole state, raw or JSON-escaped, beyond what was there before the set.
        const after = JSON.stringify(target.provider.snapshot());
        // The snapshot does cover the vault: the ciphertext is in it.
        expect(after).toContain(entries[0]!.encryptedValue);
        for (const secretText of [plain, key, secret].filter((s) => s.length >= 8)) {
          for (const form of [secretText, JSON.stringify(secretText).slice(1, -1)])
            expect(occurrences(after, form)).toBe(occurrences(before, form));
        }
      }),
      { numRuns: 20 },
    );
  }, 30_000);
});
