import { describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair } from "jose";
import { webCryptoBackend } from "./crypto-backend.ts";

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const encoder = new TextEncoder();

describe("the Web Crypto backend", () => {
  it("derives PBKDF2-HMAC-SHA256 (RFC 7914 §11's vector, first 32 bytes)", async () => {
    const key = await webCryptoBackend().pbkdf2Sha256("passwd", encoder.encode("salt"), 1);
    expect(hex(key)).toBe("55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc");
  });

  it("signs ES256 that verifies under the public key, and nothing else does", async () => {
    const backend = webCryptoBackend();
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const publicJwk = await exportJWK(publicKey);
    const signature = await backend.signEs256(privateJwk, "header.payload");
    expect(signature).toHaveLength(64);
    expect(await backend.verifyEs256(publicJwk, "header.payload", signature)).toBe(true);
    expect(await backend.verifyEs256(publicJwk, "header.payload2", signature)).toBe(false);
    const tampered = Uint8Array.from(signature);
    tampered[10]! ^= 1;
    expect(await backend.verifyEs256(publicJwk, "header.payload", tampered)).toBe(false);
  });

  it("takes a record's JWK with kid, alg and use", async () => {
    const backend = webCryptoBackend();
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), kid: "k", alg: "ES256" };
    const publicJwk = { ...(await exportJWK(publicKey)), kid: "k", alg: "ES256", use: "sig" };
    expect(await backend.verifyEs256(publicJwk, "x", await backend.signEs256(privateJwk, "x"))).toBe(true);
  });
});
