import { describe, expect, it } from "vitest";
import { exportJWK, generateKeyPair } from "jose";
import { webCryptoBackend } from "@authsim/fake-provider";
import { nodeCryptoBackend } from "./node-crypto.ts";

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
});
