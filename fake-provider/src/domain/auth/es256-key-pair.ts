import { exportJWK, generateKeyPair, type JWK } from "jose";
import type { RandomSource } from "@authsim/sdk/runtime";

/**
 * An ES256 key pair drawn from the provider's random source, so a seeded provider (the dev server's --deterministic)
 * signs with the same keys on every run and its snapshots repeat byte for byte. The private scalar is 32 random bytes,
 * imported as PKCS #8 without the public point, which Web Crypto derives.
 */
// RFC 5915 ECPrivateKey inside PKCS #8 for P-256, up to the OCTET STRING that holds the 32-byte scalar.
const P256_PKCS8_PREFIX = Uint8Array.from(
  "308141020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420".match(/../g)!.map((h) => parseInt(h, 16)),
);

export async function es256KeyPair(random: RandomSource): Promise<{ privateJwk: JWK; publicJwk: JWK }> {
  const der = new Uint8Array(P256_PKCS8_PREFIX.length + 32);
  der.set(P256_PKCS8_PREFIX);
  der.set(random.bytes(32), P256_PKCS8_PREFIX.length);
  try {
    const privateKey = await crypto.subtle.importKey("pkcs8", der, { name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
    ]);
    const { kty, crv, x, y, d } = await exportJWK(privateKey);
    return { privateJwk: { kty, crv, x, y, d }, publicJwk: { kty, crv, x, y } };
  } catch {
    // A scalar outside the curve's order (about 1 in 2^32), or a platform that will not derive the public point: a
    // fresh pair is as good a key, only not a repeatable one.
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    return { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
  }
}
