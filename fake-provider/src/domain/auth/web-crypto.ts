import { exportJWK, type JWK } from "jose";
import { webCryptoBackend, type CryptoBackend } from "./crypto-backend.ts";

/** `#platform-crypto` outside Node (browsers, msw's service worker; node-crypto.ts under Node): Web Crypto only. */
export const platformCryptoBackend: CryptoBackend = webCryptoBackend();

export interface P256KeyPair {
  privateJwk: JWK;
  publicJwk: JWK;
}

// RFC 5915 ECPrivateKey inside PKCS #8 for P-256, up to the OCTET STRING that holds the 32-byte scalar.
const P256_PKCS8_PREFIX = Uint8Array.from(
  "308141020100301306072a8648ce3d020106082a8648ce3d030107042730250201010420".match(/../g)!.map((h) => parseInt(h, 16)),
);

/**
 * The P-256 key pair of a private scalar (32 bytes), or null when it is not a valid key: imported as PKCS #8 without
 * the public point, which Web Crypto derives.
 */
export async function p256KeyPair(scalar: Uint8Array): Promise<P256KeyPair | null> {
  const der = new Uint8Array(P256_PKCS8_PREFIX.length + 32);
  der.set(P256_PKCS8_PREFIX);
  der.set(scalar, P256_PKCS8_PREFIX.length);
  try {
    const privateKey = await crypto.subtle.importKey("pkcs8", der, { name: "ECDSA", namedCurve: "P-256" }, true, [
      "sign",
    ]);
    const { kty, crv, x, y, d } = await exportJWK(privateKey);
    return { privateJwk: { kty, crv, x, y, d }, publicJwk: { kty, crv, x, y } };
  } catch {
    return null;
  }
}
