import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { seededRandom } from "@authsim/sdk/runtime";
import { API_KEY_MARKER, crc32Hex, newApiKeySecret, parseApiKeySecret } from "./api-key-format.ts";

describe("API key secrets in the real service's format", () => {
  it("CRC-32 matches zlib's", () => {
    expect(crc32Hex("hello world")).toBe("0d4a1185");
    expect(crc32Hex("")).toBe("00000000");
  });

  it("every secret parses back to its id, type and visibility, and carries the marker", () => {
    const random = seededRandom("api-key-format");
    fc.assert(
      fc.property(
        fc.uuid({ version: 4 }),
        fc.constantFrom("user" as const, "team" as const),
        fc.boolean(),
        (id, type, isPublic) => {
          const secret = newApiKeySecret(random, { id, type, isPublic });
          expect(secret.startsWith(isPublic ? "pk_" : "sk_")).toBe(true);
          expect(secret).toContain(API_KEY_MARKER);
          expect(parseApiKeySecret(secret)).toEqual({ id, type, isPublic, isCloudVersion: false });
        },
      ),
    );
  });

  it("a changed character fails the checksum", () => {
    const secret = newApiKeySecret(seededRandom("flip"), {
      id: "0b6f8d5e-3c2a-4f1e-9d7c-5b4a3e2f1d0c",
      type: "user",
      isPublic: false,
    });
    const flipped = `${secret.slice(0, 10)}${secret[10] === "a" ? "b" : "a"}${secret.slice(11)}`;
    expect(parseApiKeySecret(flipped)).toBeNull();
    expect(parseApiKeySecret("sk_user_short")).toBeNull();
  });
});
