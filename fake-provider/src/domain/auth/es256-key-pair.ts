import { exportJWK, generateKeyPair } from "jose";
import type { RandomSource } from "@authsim/sdk/runtime";
import { p256KeyPair } from "#platform-crypto";
import type { P256KeyPair } from "./web-crypto.ts";

/**
 * An ES256 key pair drawn from the provider's random source, so a seeded provider (the dev server's --deterministic)
 * signs with the same keys on every run and its snapshots repeat byte for byte. The private scalar is 32 random bytes;
 * the platform derives the public point (`#platform-crypto`: node:crypto under Node, Web Crypto elsewhere, the same
 * keys either way).
 */
export async function es256KeyPair(random: RandomSource): Promise<P256KeyPair> {
  const pair = await p256KeyPair(random.bytes(32));
  if (pair) return pair;
  // A scalar outside the curve's order (about 1 in 2^32), or a platform that will not derive the public point: a fresh
  // pair is as good a key, only not a repeatable one.
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  return { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
}
