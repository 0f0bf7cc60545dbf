import type { RandomSource } from "@authsim/sdk/runtime";

/**
 * Web Crypto's random bytes drawn a pool at a time. Every answer takes a request id and most writes an id or token,
 * each a few dozen bytes; one getRandomValues call per draw cost more (argument checks, a fresh buffer) than the bytes
 * themselves. The bytes are the same CSPRNG's, handed out once each and copied, so callers own what they get.
 */
const POOL_BYTES = 4096;

/**
 * One pool for the process, drawn from by every provider's source: each byte still goes to one caller only, and a fresh
 * provider (one a test, in a suite) no longer fills 4 KiB of its own to use a few hundred bytes of it (issue 30).
 */
let pool = new Uint8Array(0);
let at = 0;

export function pooledCryptoRandom(): RandomSource {
  return {
    bytes(length) {
      if (length > POOL_BYTES / 4) return crypto.getRandomValues(new Uint8Array(length));
      if (at + length > pool.length) {
        // A fresh pool, never refilled in place: slices handed out earlier are copies, but this keeps it obvious.
        pool = crypto.getRandomValues(new Uint8Array(POOL_BYTES));
        at = 0;
      }
      const out = pool.slice(at, at + length);
      at += length;
      return out;
    },
  };
}
