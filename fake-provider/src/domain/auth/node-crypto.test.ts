import { describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair } from "jose";
import fc from "fast-check";
import { webCryptoBackend } from "./crypto-backend.ts";
import { nodeCryptoBackend, p256KeyPair } from "./node-crypto.ts";
import { p256KeyPair as webP256KeyPair } from "./web-crypto.ts";

const encoder = new TextEncoder();

describe("the node:crypto backend", () => {
  const node = nodeCryptoBackend();
  const web = webCryptoBackend();

  it("derives the same PBKDF2 bytes as Web Crypto, synchronously at the fast cost and through the pool past it", async () => {
    const salt = encoder.encode("sixteen byte salt");
    for (const iterations of [1, 10, 20_000]) {
      const derived = node.pbkdf2Sha256("correct horse battery", salt, iterations);
      if (iterations <= 10) expect(derived).not.toBeInstanceOf(Promise);
      expect(new Uint8Array(await derived)).toEqual(
        new Uint8Array(await web.pbkdf2Sha256("correct horse battery", salt, iterations)),
      );
    }
  });

  it("signs ES256 that Web Crypto verifies, and verifies Web Crypto's signatures", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const privateJwk = { ...(await exportJWK(privateKey)), kid: "k", alg: "ES256" };
    const publicJwk = { ...(await exportJWK(publicKey)), kid: "k", alg: "ES256", use: "sig" };
    const fromNode = await node.signEs256(privateJwk, "header.payload");
    expect(fromNode).toHaveLength(64);
    expect(await web.verifyEs256(publicJwk, "header.payload", fromNode)).toBe(true);
    const fromWeb = await web.signEs256(privateJwk, "header.payload");
    expect(await node.verifyEs256(publicJwk, "header.payload", fromWeb)).toBe(true);
    expect(await node.verifyEs256(publicJwk, "header.payloaD", fromWeb)).toBe(false);
    const tampered = Uint8Array.from(fromWeb);
    tampered[63]! ^= 1;
    expect(await node.verifyEs256(publicJwk, "header.payload", tampered)).toBe(false);
  });

  it("derives the same key pair from a scalar as Web Crypto, and refuses the scalars Web Crypto refuses", async () => {
    // The curve's order n: n and n+1 are not keys, n−1 is.
    const order = Uint8Array.from(
      Buffer.from("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", "hex"),
    );
    const minusOne = Uint8Array.from(order);
    minusOne[31]! -= 1;
    const plusOne = Uint8Array.from(order);
    plusOne[31]! += 1;
    expect(p256KeyPair(new Uint8Array(32))).toBeNull();
    expect(await webP256KeyPair(new Uint8Array(32))).toBeNull();
    expect(p256KeyPair(order)).toBeNull();
    expect(p256KeyPair(plusOne)).toBeNull();
    expect(p256KeyPair(minusOne)).toEqual(await webP256KeyPair(minusOne));
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 32, maxLength: 32 }), async (scalar) => {
        expect(p256KeyPair(scalar)).toEqual(await webP256KeyPair(scalar));
      }),
      { numRuns: 50 },
    );
    // The process's one ECDH object held a valid key just now: a refused scalar still answers null, not that key.
    expect(p256KeyPair(order)).toBeNull();
    expect(p256KeyPair(minusOne)).toEqual(await webP256KeyPair(minusOne));
  });
});
