import { createPrivateKey, createPublicKey, pbkdf2, pbkdf2Sync, sign, verify, type KeyObject } from "node:crypto";
import type { CryptoBackend } from "@authsim/fake-provider";
import { signingThread } from "./signing-thread.ts";

/**
 * The emulator's crypto backend over node:crypto, injected by the dev server (the core stays on Web Crypto). The same
 * PBKDF2 and ES256 as the core's Web Crypto backend, byte for byte, but on the main thread: Web Crypto in Node sends
 * every call to the libuv pool and back, and under load that round trip (inside the store's lock) cost more than the
 * arithmetic itself.
 */

/**
 * Hashes up to this many iterations (about 3 ms) run synchronously; beyond it (`--hash-cost production`, 600,000, about
 * 200 ms) they go to the pool, so a sign-in does not stop the server answering everything else.
 */
const SYNC_ITERATIONS = 10_000;

type Jwk = Parameters<CryptoBackend["signEs256"]>[0];

/** Imported keys by the record's JWK object: importing costs more than signing; a restored state brings new objects. */
function keyCache(load: (jwk: Jwk) => KeyObject): (jwk: Jwk) => KeyObject {
  const keys = new WeakMap<Jwk, KeyObject>();
  return (jwk) => {
    let key = keys.get(jwk);
    if (!key) {
      key = load(jwk);
      keys.set(jwk, key);
    }
    return key;
  };
}

/**
 * `signOn`: "thread" (the dev server's) signs on a thread of its own (signing-thread.ts), "main" on the calling thread.
 * Hashing and verification stay on the main thread: both decide a transaction's outcome, so they run inside it.
 */
export function nodeCryptoBackend(options: { signOn?: "main" | "thread" } = {}): CryptoBackend {
  const privateKey = keyCache(({ kty, crv, x, y, d }) =>
    createPrivateKey({ key: { kty, crv, x, y, d }, format: "jwk" }),
  );
  const publicKey = keyCache(({ kty, crv, x, y }) => createPublicKey({ key: { kty, crv, x, y }, format: "jwk" }));
  const signHere = (jwk: Jwk, signingInput: string) =>
    sign("sha256", Buffer.from(signingInput, "latin1"), { key: privateKey(jwk), dsaEncoding: "ieee-p1363" });
  const thread = options.signOn === "thread" ? signingThread(signHere) : null;
  return {
    pbkdf2Sha256(password, salt, iterations) {
      if (iterations <= SYNC_ITERATIONS) return pbkdf2Sync(password, salt, iterations, 32, "sha256");
      return new Promise((resolve, reject) =>
        pbkdf2(password, salt, iterations, 32, "sha256", (error, key) => (error ? reject(error) : resolve(key))),
      );
    },
    signEs256: thread ? (jwk, signingInput) => thread.signEs256(jwk, signingInput) : signHere,
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
