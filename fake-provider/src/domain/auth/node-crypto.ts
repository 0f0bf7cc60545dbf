import {
  createECDH,
  createPrivateKey,
  createPublicKey,
  pbkdf2,
  pbkdf2Sync,
  sign,
  verify,
  type KeyObject,
} from "node:crypto";
import type { JWK } from "jose";
import type { CryptoBackend } from "./crypto-backend.ts";
import type { P256KeyPair } from "./web-crypto.ts";

/**
 * `#platform-crypto` under Node (package.json "imports"; web-crypto.ts elsewhere): the crypto backend and the key
 * derivation over node:crypto. The same PBKDF2, ES256 and keys as Web Crypto's, byte for byte, but synchronous: Web
 * Crypto in Node sends every call to the libuv pool and back (a promise, a transfer, a turn of the event loop), which
 * cost more than the arithmetic, in the dev server under load and in a test suite's fresh providers alike (issue 30).
 */

/**
 * Hashes up to this many iterations (about 3 ms) run synchronously; beyond it (`hashCost: "production"`, 600,000, about
 * 200 ms) they go to the pool, so a sign-in does not stop the process answering everything else.
 */
const SYNC_ITERATIONS = 10_000;

/** Imported keys by the record's JWK object: importing costs more than signing; a restored state brings new objects. */
function keyCache(load: (jwk: JWK) => KeyObject): (jwk: JWK) => KeyObject {
  const keys = new WeakMap<JWK, KeyObject>();
  return (jwk) => {
    let key = keys.get(jwk);
    if (!key) {
      key = load(jwk);
      keys.set(jwk, key);
    }
    return key;
  };
}

/** PBKDF2, signatures and verification on the calling thread (a server may move signatures elsewhere). */
export function nodeCryptoBackend(): CryptoBackend {
  // Only the fields of an EC key: a record's JWK also carries kid, alg and use.
  const privateKey = keyCache(({ kty, crv, x, y, d }) =>
    createPrivateKey({ key: { kty, crv, x, y, d }, format: "jwk" }),
  );
  const publicKey = keyCache(({ kty, crv, x, y }) => createPublicKey({ key: { kty, crv, x, y }, format: "jwk" }));
  return {
    pbkdf2Sha256(password, salt, iterations) {
      if (iterations <= SYNC_ITERATIONS) return pbkdf2Sync(password, salt, iterations, 32, "sha256");
      return new Promise((resolve, reject) =>
        pbkdf2(password, salt, iterations, 32, "sha256", (error, key) => (error ? reject(error) : resolve(key))),
      );
    },
    signEs256(jwk, signingInput) {
      return sign("sha256", Buffer.from(signingInput, "latin1"), { key: privateKey(jwk), dsaEncoding: "ieee-p1363" });
    },
    verifyEs256(jwk, signingInput, signature) {
      return verify(
        "sha256",
        Buffer.from(signingInput, "latin1"),
        { key: publicKey(jwk), dsaEncoding: "ieee-p1363" },
        signature,
      );
    },
  };
}

export const platformCryptoBackend: CryptoBackend = nodeCryptoBackend();

/**
 * One ECDH object for the process, given each scalar in turn: making one costs more than the derivation it serves (36
 * against 17 µs), and a fresh provider derives two points (its signing key and the standby). The calls are synchronous,
 * so no two derivations share it at once; it holds the last scalar only until the next call, as the records do anyway.
 */
let sharedEcdh: ReturnType<typeof createECDH> | null = null;

/**
 * The P-256 key pair of a private scalar (32 bytes), or null when the scalar is not a valid key (zero, or past the
 * curve's order). ECDH derives the public point some fifteen times cheaper than importing the scalar as PKCS #8 (which
 * is what Web Crypto offers), the largest cost of a provider's first token.
 */
export function p256KeyPair(scalar: Uint8Array): P256KeyPair | null {
  const ecdh = (sharedEcdh ??= createECDH("prime256v1"));
  try {
    ecdh.setPrivateKey(scalar);
  } catch {
    return null;
  }
  const point = ecdh.getPublicKey(); // 0x04 ‖ x ‖ y
  const x = point.subarray(1, 33).toString("base64url");
  const y = point.subarray(33, 65).toString("base64url");
  const d = Buffer.from(scalar).toString("base64url");
  return { privateJwk: { kty: "EC", crv: "P-256", x, y, d }, publicJwk: { kty: "EC", crv: "P-256", x, y } };
}
