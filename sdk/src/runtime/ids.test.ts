import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { randomBase32, seededRandom, uuid, type RandomSource } from "./ids.ts";

const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

/** A source that hands out the given bytes (and records that it was asked for that many). */
const fixed = (bytes: Uint8Array): RandomSource => ({
  bytes: (length) => {
    expect(length).toBe(bytes.length);
    return bytes;
  },
});

describe("randomBase32", () => {
  it("maps each drawn byte's low five bits to a Crockford character, leaving the source's bytes as they were", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.infiniteStream(fc.integer({ min: 0, max: 255 })),
        (bits, stream) => {
          const length = Math.ceil(bits / 5);
          const bytes = Uint8Array.from(stream.take(length));
          const drawn = Uint8Array.from(bytes);
          const text = randomBase32(fixed(bytes), bits);
          expect(text).toBe(Array.from(drawn, (b) => CROCKFORD[b & 31]).join(""));
          expect(bytes).toEqual(drawn);
        },
      ),
    );
  });

  it("is 45 characters by default (224 bits) and reproducible from a seed", () => {
    expect(randomBase32(seededRandom("ids"))).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    expect(randomBase32(seededRandom("ids"))).toBe(randomBase32(seededRandom("ids")));
  });
});

describe("uuid", () => {
  it("is a version-4 UUID", () => {
    expect(uuid(seededRandom("ids"))).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("is the source's 16 bytes in hex, grouped 4-2-2-2-6, with the version and variant bits set", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
        const id = uuid({ bytes: () => Uint8Array.from(bytes) });
        const b = Uint8Array.from(bytes);
        b[6] = (b[6]! & 0x0f) | 0x40;
        b[8] = (b[8]! & 0x3f) | 0x80;
        const hex = Buffer.from(b).toString("hex");
        expect(id).toBe(
          `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`,
        );
      }),
    );
  });
});
