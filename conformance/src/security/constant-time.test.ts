import fc from "fast-check";
import { describe, expect, it } from "vitest";
// The comparison is internal to the fake provider (not part of its package API), so it is imported by path.
import { constantTimeEqual, constantTimeEqualStrings } from "../../../fake-provider/src/domain/auth/compare.ts";

/**
 * Key comparison must not tell how much of a guess was right (issue 10). Code review of fake-provider/src (at the time
 * of writing): project keys are compared with constantTimeEqualStrings in auth/keys.ts, whose loop visits every key
 * set of the project without stopping at a match; password hashes with constantTimeEqual in auth/passwords.ts, and an
 * unknown email is checked against a dummy hash. API keys, refresh tokens and verification codes are found by an
 * exact-match map lookup of the whole secret (a hash table), which compares no prefix character by character.
 *
 * Timing is never asserted (it is noise on a shared machine). Instead the comparison is instrumented: every byte read
 * is counted, and the count must not depend on where, or whether, the inputs differ.
 */
function counted(bytes: Uint8Array): { view: Uint8Array; reads: () => number } {
  let reads = 0;
  const view = new Proxy(bytes, {
    get(target, property) {
      if (typeof property === "string" && /^\d+$/.test(property)) reads += 1;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { view, reads: () => reads };
}

function readsFor(a: Uint8Array, b: Uint8Array): { equal: boolean; readsA: number; readsB: number } {
  const left = counted(a);
  const right = counted(b);
  const equal = constantTimeEqual(left.view, right.view);
  return { equal, readsA: left.reads(), readsB: right.reads() };
}

describe("constant-time comparison", () => {
  it("reads every byte of both inputs whatever the position of the first difference", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.nat(), (bytes, at) => {
        const position = at % bytes.length;
        const different = Uint8Array.from(bytes);
        different[position] = (different[position]! + 1) % 256;
        const same = readsFor(bytes, Uint8Array.from(bytes));
        const differs = readsFor(bytes, different);
        expect(same.equal).toBe(true);
        expect(differs.equal).toBe(false);
        // The loop runs over the full length in both cases: a mismatch at byte 0 costs what a full match costs.
        expect([differs.readsA, differs.readsB]).toEqual([bytes.length, bytes.length]);
        expect([same.readsA, same.readsB]).toEqual([bytes.length, bytes.length]);
      }),
      { seed: 10, numRuns: 200 },
    );
  });

  it("runs over the longer input when the lengths differ, without returning early", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 48 }), fc.uint8Array({ maxLength: 48 }), (a, b) => {
        const result = readsFor(a, b);
        const longer = Math.max(a.length, b.length);
        expect([result.readsA, result.readsB]).toEqual([longer, longer]);
        expect(result.equal).toBe(a.length === b.length && a.every((x, i) => x === b[i]));
      }),
      { seed: 11, numRuns: 200 },
    );
  });

  it("agrees with plain equality on strings, including prefixes, non-ASCII text and lone surrogates", () => {
    const text = fc.string({ unit: "binary", maxLength: 40 });
    fc.assert(
      fc.property(text, text, fc.boolean(), (a, b, prefix) => {
        const other = prefix ? a + b : b;
        expect(constantTimeEqualStrings(a, other)).toBe(a === other);
        expect(constantTimeEqualStrings(a, a)).toBe(true);
      }),
      { seed: 12, numRuns: 200 },
    );
    // Two different lone surrogates both become U+FFFD in UTF-8: a comparison of encoded bytes would call them equal.
    expect(constantTimeEqualStrings("k\ud800", "k\udbff")).toBe(false);
    expect(constantTimeEqualStrings("k\ud800", "k\ufffd")).toBe(false);
    // A key that differs only in its last character, or is a prefix of the real one, is not equal.
    const key = "sak_authsim_dev_0000000000000000000000000000000000000000";
    expect(constantTimeEqualStrings(key, `${key.slice(0, -1)}1`)).toBe(false);
    expect(constantTimeEqualStrings(key, key.slice(0, -1))).toBe(false);
    expect(constantTimeEqualStrings(key, `${key}0`)).toBe(false);
  });
});
