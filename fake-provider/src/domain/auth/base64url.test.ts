import { describe, expect, it } from "vitest";
import { base64UrlToBytes, base64UrlToText, bytesToBase64Url, textToBase64Url } from "./base64url.ts";

describe("base64url", () => {
  it("encodes bytes without padding in the URL alphabet (RFC 4648 §5)", () => {
    expect(bytesToBase64Url(Uint8Array.of(0xfb, 0xff, 0xbf))).toBe("-_-_");
    expect(bytesToBase64Url(Uint8Array.of(1))).toBe("AQ");
    expect(bytesToBase64Url(new Uint8Array(0))).toBe("");
  });

  it("round-trips text as UTF-8, ASCII and not", () => {
    for (const text of ['{"alg":"ES256"}', '{"name":"Zoë 🦊"}', ""]) {
      expect(base64UrlToText(textToBase64Url(text))).toBe(text);
    }
    expect(textToBase64Url("é")).toBe("w6k");
  });

  it("round-trips bytes, large inputs included", () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 7) & 0xff);
    expect(base64UrlToBytes(bytesToBase64Url(bytes))).toEqual(bytes);
  });

  it("refuses what is not the one canonical encoding of some bytes", () => {
    expect(base64UrlToBytes("AQ==")).toBeNull(); // padding
    expect(base64UrlToBytes("+/8")).toBeNull(); // the standard alphabet
    expect(base64UrlToBytes("AR")).toBeNull(); // leftover bits set: "AQ" and "AR" would both be 0x01
    expect(base64UrlToBytes("A")).toBeNull(); // no whole byte
    expect(base64UrlToBytes("AQ ")).toBeNull();
  });

  it("refuses text that is not UTF-8", () => {
    expect(base64UrlToText(bytesToBase64Url(Uint8Array.of(0xc3)))).toBeNull();
  });
});
