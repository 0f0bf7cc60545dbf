import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { base64ToBytes, base64ToUtf8, bytesToBase64, utf8ToBase64 } from "./base64.ts";

describe("base64", () => {
  it("round-trips any bytes, and agrees with Node's encoder both ways", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = bytesToBase64(bytes);
        expect(text).toBe(Buffer.from(bytes).toString("base64"));
        expect([...base64ToBytes(text)]).toEqual([...bytes]);
      }),
    );
  });

  it("encodes large inputs (past the argument limit of one call) and UTF-8 text", () => {
    const large = new Uint8Array(200_000).map((_, i) => i % 251);
    expect(bytesToBase64(large)).toBe(Buffer.from(large).toString("base64"));
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (text) => {
        expect(base64ToUtf8(utf8ToBase64(text))).toBe(text);
      }),
    );
    expect(utf8ToBase64("Zoë ✓")).toBe(Buffer.from("Zoë ✓").toString("base64"));
  });

  it("refuses what is not base64", () => {
    expect(() => base64ToBytes("not base64!")).toThrow();
    expect(() => base64ToBytes("abcde")).toThrow();
    expect(() => base64ToBytes("ab-_")).toThrow();
  });
});
