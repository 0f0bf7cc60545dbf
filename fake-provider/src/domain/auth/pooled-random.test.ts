import { describe, expect, it } from "vitest";
import { pooledCryptoRandom } from "./pooled-random.ts";

describe("the pooled random source", () => {
  it("hands out the lengths asked for, large ones included, never the same bytes twice", () => {
    const random = pooledCryptoRandom();
    const seen = new Set<string>();
    for (const length of [0, 1, 16, 45, 1000, 5000, 24, 4096]) {
      const bytes = random.bytes(length);
      expect(bytes).toBeInstanceOf(Uint8Array);
      expect(bytes).toHaveLength(length);
      if (length >= 16) {
        const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
        expect(seen.has(hex)).toBe(false);
        seen.add(hex);
      }
    }
  });

  it("gives copies: changing one draw changes no later draw", () => {
    const random = pooledCryptoRandom();
    const first = random.bytes(16);
    first.fill(0);
    expect(random.bytes(16).every((b) => b === 0)).toBe(false);
  });
});

describe("the pooled random sources of several providers", () => {
  it("never hand two of them the same bytes, interleaved in any order", () => {
    const sources = [pooledCryptoRandom(), pooledCryptoRandom(), pooledCryptoRandom()];
    const seen = new Set<string>();
    for (let i = 0; i < 600; i++) {
      const bytes = sources[(i * 7) % 3]!.bytes(16 + (i % 5));
      const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      expect(seen.has(hex)).toBe(false);
      seen.add(hex);
    }
  });
});
