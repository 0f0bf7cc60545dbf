/**
 * Randomness from one injectable source (design rule 5): ids, tokens, keys and codes all come from a RandomSource,
 * so a seeded source makes a whole run reproducible.
 */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}

export const cryptoRandom: RandomSource = {
  bytes: (length) => crypto.getRandomValues(new Uint8Array(length)),
};

/** A deterministic source (sfc32 over a string seed): same seed, same ids. Not for secrets in production. */
export function seededRandom(seed: string): RandomSource {
  let h = 1779033703 ^ seed.length;
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  const next32 = () => {
    h = Math.imul(h ^ (h >>> 16), 2246822507);
    h = Math.imul(h ^ (h >>> 13), 3266489909);
    return (h ^= h >>> 16) >>> 0;
  };
  let a = next32(),
    b = next32(),
    c = next32(),
    d = next32();
  const sfc32 = () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    const r = (t + d) | 0;
    c = (c + r) | 0;
    return r >>> 0;
  };
  return {
    bytes: (length) => {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) out[i] = sfc32() & 0xff;
      return out;
    },
  };
}

const HEX_CODES = Uint8Array.from("0123456789abcdef", (c) => c.charCodeAt(0));
const DASH = "-".charCodeAt(0);
/** One id's character codes, filled and read within one call (ids are made synchronously, one at a time). */
const uuidCodes = new Uint8Array(36);

/** A version-4 UUID. */
export function uuid(random: RandomSource): string {
  const b = random.bytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  // Character codes into one string, as randomBase32 does: a flat string (a template over slices would leave each
  // stored id as a tree of concatenations, about 0.3 KiB an id), and five times faster than joining arrays of hex
  // pairs, which was 2% of the dev server's work in a sign-up (issue 30).
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) uuidCodes[at++] = DASH;
    uuidCodes[at++] = HEX_CODES[b[i]! >> 4]!;
    uuidCodes[at++] = HEX_CODES[b[i]! & 15]!;
  }
  return String.fromCharCode.apply(null, uuidCodes as unknown as number[]);
}

/** Lowercase Crockford base32 (no i, l, o, u), the alphabet of refresh tokens and codes (protocol.md §4.3). */
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";
const CROCKFORD_CODES = Uint8Array.from(CROCKFORD, (c) => c.charCodeAt(0));

/** A random base32 string carrying `bits` bits (spec §9: 224 bits by default, i.e. 45 characters). */
export function randomBase32(random: RandomSource, bits = 224): string {
  const length = Math.ceil(bits / 5);
  const bytes = random.bytes(length);
  // The characters' codes, then one flat string: appending a character at a time leaves a chain of concatenations
  // behind, and an array of one-character strings joined cost twice as much (every answer's request id is one).
  const codes = new Uint8Array(length);
  for (let i = 0; i < length; i++) codes[i] = CROCKFORD_CODES[bytes[i]! & 31]!;
  return String.fromCharCode.apply(null, codes as unknown as number[]);
}

/** A random nonce for the x-stack-random-nonce header (45 characters, like the published SDK's). */
export function randomNonce(random: RandomSource): string {
  return randomBase32(random, 224);
}
