import { defaultCryptoBackend, type CryptoBackend } from "@authsim/fake-provider";
import { signingThread } from "./signing-thread.ts";

/**
 * The dev server's crypto backend: the core's own under Node (node:crypto, synchronous: fake-provider's
 * domain/auth/node-crypto.ts), with ES256 signatures on a thread of their own when `signOn` is "thread" (the dev
 * server's; signing-thread.ts). Hashing and verification stay on the main thread: both decide a transaction's outcome,
 * so they run inside it.
 */
export function nodeCryptoBackend(options: { signOn?: "main" | "thread" } = {}): CryptoBackend {
  if (options.signOn !== "thread") return defaultCryptoBackend;
  const thread = signingThread((jwk, signingInput) => defaultCryptoBackend.signEs256(jwk, signingInput));
  return { ...defaultCryptoBackend, signEs256: (jwk, signingInput) => thread.signEs256(jwk, signingInput) };
}
