import { describe, expect, it } from "vitest";
import { importJWK, jwtVerify, SignJWT } from "jose";
import { seededRandom } from "@authsim/sdk/runtime";
import { es256KeyPair } from "./es256-key-pair.ts";

describe("ES256 signing key pairs", () => {
  it("repeats the pair for the same seeded random source, and differs for another seed", async () => {
    const a = await es256KeyPair(seededRandom("s1"));
    expect(await es256KeyPair(seededRandom("s1"))).toEqual(a);
    expect((await es256KeyPair(seededRandom("s2"))).privateJwk.d).not.toBe(a.privateJwk.d);
    expect(a.publicJwk).not.toHaveProperty("d");
  });

  it("signs tokens that verify with its public half", async () => {
    const { privateJwk, publicJwk } = await es256KeyPair(seededRandom("s3"));
    const token = await new SignJWT({ sub: "u" })
      .setProtectedHeader({ alg: "ES256" })
      .sign(await importJWK(privateJwk, "ES256"));
    expect((await jwtVerify(token, await importJWK(publicJwk, "ES256"))).payload.sub).toBe("u");
  });
});
