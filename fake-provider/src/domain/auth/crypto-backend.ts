import type { JWK } from "jose";

/**
 * The emulator's costly primitives behind one injectable interface: password hashing and ES256 signatures. The core
 * ships two implementations and picks one by platform (`#platform-crypto`, default-crypto.ts): Web Crypto (below; it
 * runs wherever the core does: browsers, msw's service worker) and, under Node, node:crypto (node-crypto.ts). Web
 * Crypto in Node answers every call through a job on the libuv pool and back (a promise, a transfer, a turn of the
 * event loop), which costs more than the arithmetic and leaves the main thread waiting inside the store's lock, so
 * under Node the synchronous one is the default; a server may inject its own (the dev server signs on a thread of its
 * own). Either may answer synchronously or with a promise; callers await both.
 */
export interface CryptoBackend {
  /** PBKDF2-HMAC-SHA256 of the password's UTF-8 bytes: 32 bytes. */
  pbkdf2Sha256(password: string, salt: Uint8Array, iterations: number): Uint8Array | Promise<Uint8Array>;
  /** The ES256 signature (raw r‖s, 64 bytes) of an ASCII signing input with a private P-256 JWK. */
  signEs256(privateJwk: JWK, signingInput: string): Uint8Array | Promise<Uint8Array>;
  /** Whether `signature` (raw r‖s) is a valid ES256 signature of the ASCII signing input under the public JWK. */
  verifyEs256(publicJwk: JWK, signingInput: string, signature: Uint8Array): boolean | Promise<boolean>;
}

const encoder = new TextEncoder();
const ecdsa = { name: "ECDSA", namedCurve: "P-256" } as const;
const ecdsaSha256 = { name: "ECDSA", hash: "SHA-256" } as const;

/**
 * Imported keys by JWK object: importing costs more than signing. Keyed weakly by the record's own JWK, which never
 * changes under a record (a restored snapshot brings new objects, imported again), so nothing outlives its record.
 */
function importCache(usage: "sign" | "verify"): (jwk: JWK) => Promise<CryptoKey> {
  const keys = new WeakMap<JWK, Promise<CryptoKey>>();
  return (jwk) => {
    let key = keys.get(jwk);
    if (!key) {
      // Only the fields of an EC key: a record's JWK also carries kid, alg and use, which importKey would check.
      const { kty, crv, x, y, d } = jwk;
      key = crypto.subtle.importKey("jwk", { kty, crv, x, y, ...(usage === "sign" ? { d } : {}) }, ecdsa, false, [
        usage,
      ]);
      keys.set(jwk, key);
    }
    return key;
  };
}

/** The web-standard implementation: Web Crypto only, so it runs in browsers and service workers as well. */
export function webCryptoBackend(): CryptoBackend {
  const signingKey = importCache("sign");
  const verifyingKey = importCache("verify");
  return {
    async pbkdf2Sha256(password, salt, iterations) {
      const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
      const bits = await crypto.subtle.deriveBits(
        { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
        key,
        256,
      );
      return new Uint8Array(bits);
    },
    async signEs256(privateJwk, signingInput) {
      return new Uint8Array(
        await crypto.subtle.sign(ecdsaSha256, await signingKey(privateJwk), encoder.encode(signingInput)),
      );
    },
    async verifyEs256(publicJwk, signingInput, signature) {
      return crypto.subtle.verify(
        ecdsaSha256,
        await verifyingKey(publicJwk),
        signature as BufferSource,
        encoder.encode(signingInput),
      );
    },
  };
}
