import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  START_MILLIS,
  anonymousSignUp,
  api,
  expectJson,
  newProvider,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";

/** GET /projects/{id}/.well-known/jwks.json (protocol.md §4.1): public ES256 keys by audience family. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const jwksPath = (projectId: string, query = "") => `/projects/${projectId}/.well-known/jwks.json${query}`;
const fetchJwks = async (query = "") => expectJson<JSONWebKeySet>(await api(provider, jwksPath(DEV.id, query)));
const currentDate = () => new Date(provider.clock.now());

describe("JWKS", () => {
  it("lists only the normal users' keys by default (the signing key, then the next one), public parts only", async () => {
    const { keys } = await fetchJwks();
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).toMatchObject({
        kty: "EC",
        alg: "ES256",
        crv: "P-256",
        kid: expect.any(String),
        x: expect.any(String),
        y: expect.any(String),
      });
      expect(key).not.toHaveProperty("d");
    }
    const user = await signUp(provider);
    expect(decodeProtectedHeader(user.access_token).kid).toBe(keys[0]!.kid);
  });

  it("adds the restricted keys with include_restricted, and the restricted and anonymous ones with include_anonymous", async () => {
    const normal = await fetchJwks();
    const restricted = await fetchJwks("?include_restricted=true");
    const anonymous = await fetchJwks("?include_anonymous=true");
    expect(restricted.keys).toHaveLength(4);
    expect(anonymous.keys).toHaveLength(6);
    expect(new Set(anonymous.keys.map((k) => k.kid)).size).toBe(6);
    expect(anonymous.keys.slice(0, 4)).toEqual(restricted.keys);
    expect(anonymous.keys.slice(0, 2)).toEqual(normal.keys);
  });

  it("publishes the next key for a signing key saved without one", async () => {
    const [signing] = (await fetchJwks()).keys;
    const withoutStandby = { ...provider.store.read.signingKeys.get("normal")! };
    delete withoutStandby.standbyPublicJwk;
    await provider.store.transact((tables) => void tables.signingKeys.set("normal", withoutStandby));
    const { keys } = await fetchJwks();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toEqual(signing);
    expect(keys[1]!.kid).not.toBe(signing!.kid);
  });

  it("answers an unknown project with a plain-text 404 Project not found", async () => {
    const response = await api(provider, jwksPath("0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3"));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    expect(await response.text()).toBe("Project not found");
  });

  it("needs no authentication headers", async () => {
    expect((await api(provider, jwksPath(DEV.id))).status).toBe(200);
  });

  it("verifies a normal user's token with jose, issuer and audience included", async () => {
    const user = await signUp(provider);
    const keySet = createLocalJWKSet(await fetchJwks());
    const { payload, protectedHeader } = await jwtVerify(user.access_token, keySet, {
      issuer: `http://localhost:8102/api/v1/projects/${DEV.id}`,
      audience: DEV.id,
      algorithms: ["ES256"],
      currentDate: currentDate(),
    });
    expect(payload.sub).toBe(user.user_id);
    expect(payload.iat).toBe(START_MILLIS / 1000);
    expect(protectedHeader.kid).toBe(decodeProtectedHeader(user.access_token).kid);
  });

  it("does not verify an anonymous token against the default set, only with include_anonymous", async () => {
    const anon = await anonymousSignUp(provider);
    await expect(
      jwtVerify(anon.access_token, createLocalJWKSet(await fetchJwks()), { currentDate: currentDate() }),
    ).rejects.toThrow();
    const withAnonymous = createLocalJWKSet(await fetchJwks("?include_anonymous=true"));
    const { payload } = await jwtVerify(anon.access_token, withAnonymous, {
      audience: `${DEV.id}:anon`,
      currentDate: currentDate(),
    });
    expect(payload.sub).toBe(anon.user_id);
  });

  it("keeps its keys stable across requests", async () => {
    const first = await fetchJwks("?include_anonymous=true");
    await signUp(provider);
    expect(await fetchJwks("?include_anonymous=true")).toEqual(first);
  });
});
