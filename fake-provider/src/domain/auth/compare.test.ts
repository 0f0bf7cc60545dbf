import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { constantTimeEqual, constantTimeEqualStrings } from "./compare.ts";

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const text = fc.string({ unit: codeUnit, maxLength: 60 });

describe("constant-time comparison", () => {
  it("of strings is string equality, for any code units", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(constantTimeEqualStrings(a, b)).toBe(a === b);
      }),
    );
  });

  it("tells apart strings one code unit apart, a prefix, and surrogates UTF-8 would merge", () => {
    fc.assert(
      fc.property(
        text.filter((t) => t.length > 0),
        fc.nat(),
        codeUnit,
        (a, at, unit) => {
          const i = at % a.length;
          const b = a.slice(0, i) + unit + a.slice(i + 1);
          expect(constantTimeEqualStrings(a, b)).toBe(a === b);
          expect(constantTimeEqualStrings(a, a.slice(0, i))).toBe(false);
          expect(constantTimeEqualStrings(a + "\0", a)).toBe(false);
        },
      ),
    );
    expect(constantTimeEqualStrings("k\ud800", "k\udbff")).toBe(false);
    expect(constantTimeEqualStrings("k\ud800", "k\ufffd")).toBe(false);
  });

  it("of bytes compares lengths too", () => {
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true);
    expect(constantTimeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2, 0))).toBe(false);
  });
});
