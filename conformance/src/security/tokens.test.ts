import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildArsenal, type Arsenal } from "../fuzz/arsenal.ts";
import { algNone, garbageTokens, hmacConfused, resign, spliceSignature, tamper } from "../fuzz/forge.ts";
import { buildWorld, keyHeaders, PASSWORD, projects, type World } from "../fuzz/world.ts";
import { api, clientApp, expectKnownError, expectOk, families } from "./support.ts";

/**
 * Access tokens a verifier must refuse (protocol.md §2.3 step 5, §4.1): edited claims, `alg: none`, another key
 * under the provider's kid, HS256 keyed with the published key, spliced signatures, expiry, another project, an
 * anonymous user without the allow header. Over HTTP in both header families, and through our SDK.
 */
let world: World;
let arsenal: Arsenal;
let publicJwk: string;

beforeAll(async () => {
  world = await buildWorld({ seed: "authsim-security-tokens" });
  arsenal = await buildArsenal(world);
  const keys = world.baseline.store.tables.signingKeys ?? [];
  publicJwk = JSON.stringify((keys[0]?.[1] as { publicJwk?: unknown } | undefined)?.publicJwk ?? {});
});
beforeEach(() => {
  world.provider.restore(world.baseline);
});

describe.each(families)("user access tokens (x-%s-* headers)", (family) => {
  const getMe = (token: string, extra = {}) =>
    api(world, "GET", "/users/me", keyHeaders("dev", "client", { accessToken: token, ...extra }), { family });

  it("accepts the genuine token (the control case)", async () => {
    expect(expectOk(await getMe(world.users.a.accessToken)).id).toBe(world.users.a.userId);
  });

  it("refuses claims edited after signing (sub switched to another user) with UNPARSABLE_ACCESS_TOKEN", async () => {
    expectKnownError(
      await getMe(tamper(world.users.a.accessToken, { sub: world.users.b.userId })),
      "UNPARSABLE_ACCESS_TOKEN",
    );
    expectKnownError(await getMe(tamper(world.users.a.accessToken, { exp: 4_102_444_800 })), "UNPARSABLE_ACCESS_TOKEN");
  });

  it("refuses alg: none, with or without edited claims", async () => {
    expectKnownError(await getMe(algNone(world.users.a.accessToken)), "UNPARSABLE_ACCESS_TOKEN");
    expectKnownError(
      await getMe(algNone(world.users.a.accessToken, { sub: world.users.b.userId })),
      "UNPARSABLE_ACCESS_TOKEN",
    );
  });

  it("refuses a token re-signed with another key under the provider's kid", async () => {
    expectKnownError(await getMe(await resign(world.users.a.accessToken)), "UNPARSABLE_ACCESS_TOKEN");
    expectKnownError(
      await getMe(await resign(world.users.a.accessToken, { sub: world.users.b.userId })),
      "UNPARSABLE_ACCESS_TOKEN",
    );
  });

  it("refuses HS256 keyed with the published public key (algorithm confusion)", async () => {
    expectKnownError(await getMe(await hmacConfused(world.users.a.accessToken, publicJwk)), "UNPARSABLE_ACCESS_TOKEN");
  });

  it("refuses one genuine token's claims under another genuine token's signature", async () => {
    expectKnownError(
      await getMe(spliceSignature(world.users.b.accessToken, world.users.a.accessToken)),
      "UNPARSABLE_ACCESS_TOKEN",
    );
  });

  it("refuses garbage of every shape with UNPARSABLE_ACCESS_TOKEN", async () => {
    for (const token of garbageTokens) expectKnownError(await getMe(token), "UNPARSABLE_ACCESS_TOKEN");
  });

  it("refuses an expired token with ACCESS_TOKEN_EXPIRED and when it expired", async () => {
    const body = expectKnownError(await getMe(world.stale.a.accessToken), "ACCESS_TOKEN_EXPIRED");
    expect(body.details).toMatchObject({ expired_at_millis: expect.any(Number) });
  });

  it("refuses a token of project A on project B with INVALID_PROJECT_FOR_ACCESS_TOKEN, before any key check", async () => {
    const onOther = await api(
      world,
      "GET",
      "/users/me",
      keyHeaders("other", "client", { accessToken: world.users.a.accessToken }),
      { family },
    );
    expect(expectKnownError(onOther, "INVALID_PROJECT_FOR_ACCESS_TOKEN").details).toEqual({
      expected_project_id: projects.other.id,
      actual_project_id: projects.dev.id,
    });
    const foreignOnDev = await getMe(world.users.foreign.accessToken);
    expect(expectKnownError(foreignOnDev, "INVALID_PROJECT_FOR_ACCESS_TOKEN").details).toEqual({
      expected_project_id: projects.dev.id,
      actual_project_id: projects.other.id,
    });
    // With the other project's right keys too: the token is checked first (§2.3 step 5 before step 7).
    const withServerKey = await api(
      world,
      "GET",
      "/users/me",
      keyHeaders("dev", "server", { accessToken: world.users.owner.accessToken }),
      { family },
    );
    expectKnownError(withServerKey, "INVALID_PROJECT_FOR_ACCESS_TOKEN");
  });

  it("refuses an anonymous user's token without the allow header, and accepts it with it", async () => {
    expectKnownError(await getMe(world.users.anon.accessToken), "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    expectKnownError(
      await getMe(world.users.anon.accessToken, { allowAnonymousUser: "false" }),
      "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
    );
    const allowed = expectOk(await getMe(world.users.anon.accessToken, { allowAnonymousUser: "true" }));
    expect(allowed).toMatchObject({ id: world.users.anon.userId, is_anonymous: true });
  });

  it("refuses a restricted user's token without an allow header, and accepts it with allow-restricted or allow-anonymous", async () => {
    expectOk(
      await api(world, "PATCH", `/users/${world.users.b.userId}`, keyHeaders("dev", "server"), {
        body: { restricted_by_admin: true },
      }),
    );
    const signedIn = expectOk(
      await api(world, "POST", "/auth/password/sign-in", keyHeaders("dev", "client"), {
        body: { email: world.users.b.email, password: PASSWORD },
      }),
    );
    const token = String(signedIn.access_token);
    expectKnownError(await getMe(token), "RESTRICTED_USER_NOT_ALLOWED");
    expect(expectOk(await getMe(token, { allowRestrictedUser: "true" })).id).toBe(world.users.b.userId);
    expect(expectOk(await getMe(token, { allowAnonymousUser: "true" })).id).toBe(world.users.b.userId);
  });

  it("refuses a forged token even next to the right secret server key", async () => {
    const answer = await api(
      world,
      "GET",
      `/users/${world.users.b.userId}`,
      keyHeaders("dev", "server", { accessToken: arsenal.forgedUserTokens[0]! }),
      { family },
    );
    expectKnownError(answer, "UNPARSABLE_ACCESS_TOKEN");
  });
});

describe("forged tokens through our SDK", () => {
  it("a token edited to name another user signs the SDK in as nobody", async () => {
    const forged = tamper(world.users.a.accessToken, { sub: world.users.b.userId });
    const app = clientApp(world, "dev", { accessToken: forged, refreshToken: null });
    expect(await app.getUser()).toBeNull();
  });

  it("an alg: none token with a refresh token of its own recovers as that refresh token's user, never as the forged one", async () => {
    const forged = algNone(world.users.a.accessToken, { sub: world.users.b.userId });
    const app = clientApp(world, "dev", { accessToken: forged, refreshToken: world.users.a.refreshToken });
    expect((await app.getUser())?.id).toBe(world.users.a.userId);
  });

  it("tokens of project A give no user on project B", async () => {
    const app = clientApp(world, "other", {
      accessToken: world.users.a.accessToken,
      refreshToken: world.users.a.refreshToken,
    });
    expect(await app.getUser()).toBeNull();
  });

  it("an anonymous session is a user only where the caller asks for anonymous users (the SDK sends the allow header)", async () => {
    const app = clientApp(world, "dev", {
      accessToken: world.users.anon.accessToken,
      refreshToken: world.users.anon.refreshToken,
    });
    expect(await app.getUser()).toBeNull();
    const user = await app.getUser({ or: "anonymous" });
    expect({ id: user.id, isAnonymous: user.isAnonymous }).toEqual({ id: world.users.anon.userId, isAnonymous: true });
  });
});
