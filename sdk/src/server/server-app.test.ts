import { describe, expect, it } from "vitest";
import { manualClock, type ManualClock } from "../runtime/clock.ts";
import { fakeFetch, json, knownError, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, testSigner, type TestSigner } from "../test-support/tokens.ts";
import { serverUserJson } from "../test-support/wire-fixtures.ts";
import { StackServerApp } from "./server-app.ts";

const T0 = 1_750_000_000_000;
const OTHER_ID = "7d1c2b4a-5d6e-4f70-9a9b-0c1d2e3f4a5b";

function setup(responder: Responder, clock: ManualClock = manualClock(T0)) {
  const ff = fakeFetch(responder);
  const app = new StackServerApp({
    projectId: "internal",
    baseUrl: "http://api.test",
    secretServerKey: "ssk",
    fetch: ff.fetch,
    clock,
    sleep: recordingSleep().sleep,
  });
  return { app, calls: ff.calls, clock };
}

const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");
const pathOf = (call: { url: string; method: string }) =>
  `${call.method} ${new URL(call.url).pathname.replace("/api/v1", "")}`;

describe("StackServerApp users", () => {
  it("sends server access with the secret key", async () => {
    const { app, calls } = setup(router({ [`GET /users/${TEST_USER_ID}`]: () => json(serverUserJson()) }));
    const user = await app.getUser(TEST_USER_ID);
    expect(calls[0]!.headers["x-stack-access-type"]).toBe("server");
    expect(calls[0]!.headers["x-stack-secret-server-key"]).toBe("ssk");
    expect(user).toMatchObject({
      id: TEST_USER_ID,
      serverMetadata: { plan: "pro" },
      countryCode: "CH",
      riskScores: { signUp: { bot: 1, freeTrialAbuse: 2 } },
    });
    expect(user!.lastActiveAt).toEqual(new Date(1_700_000_500_000));
  });

  it("returns null for USER_NOT_FOUND", async () => {
    const { app } = setup(() => knownError("USER_NOT_FOUND", 404));
    expect(await app.getUser(OTHER_ID)).toBeNull();
  });

  it("creates a user with a snake_case body", async () => {
    const { app, calls } = setup(router({ "POST /users": () => json(serverUserJson(), 201) }));
    const user = await app.createUser({
      primaryEmail: "ada@example.com",
      password: "pw",
      primaryEmailVerified: true,
      serverMetadata: { plan: "pro" },
    });
    expect(bodyOf(calls[0]!)).toEqual({
      primary_email: "ada@example.com",
      password: "pw",
      primary_email_verified: true,
      server_metadata: { plan: "pro" },
    });
    expect(user.primaryEmail).toBe("ada@example.com");
  });

  it("lists users with query flags and the next cursor", async () => {
    const { app, calls } = setup(
      router({
        "GET /users": () =>
          json({ items: [serverUserJson()], is_paginated: true, pagination: { next_cursor: OTHER_ID } }),
      }),
    );
    const users = await app.listUsers({
      limit: 1,
      orderBy: "signedUpAt",
      desc: true,
      includeAnonymous: true,
      query: "ada",
    });
    expect(Object.fromEntries(new URL(calls[0]!.url).searchParams)).toEqual({
      limit: "1",
      order_by: "signed_up_at",
      desc: "true",
      include_anonymous: "true",
      query: "ada",
    });
    expect(users).toHaveLength(1);
    expect(users.nextCursor).toBe(OTHER_ID);
    await expect(app.listUsers({ onlyAnonymous: true })).rejects.toThrow(/includeAnonymous/);
  });

  it("updates, deletes and opens sessions for a user", async () => {
    const { app, calls } = setup(
      router({
        [`GET /users/${TEST_USER_ID}`]: () => json(serverUserJson()),
        [`PATCH /users/${TEST_USER_ID}`]: () => json(serverUserJson()),
        [`DELETE /users/${TEST_USER_ID}`]: () => json({ success: true }),
        "POST /auth/sessions": () => json({ refresh_token: "rt", access_token: "at" }),
      }),
    );
    const user = (await app.getUser(TEST_USER_ID))!;
    await user.update({
      serverMetadata: { x: 1 },
      password: "new-pw",
      primaryEmailVerified: false,
      riskScores: { signUp: { bot: 5, freeTrialAbuse: 6 } },
    });
    await user.setPrimaryEmail("g@example.com", { verified: true });
    await app.updateUser(TEST_USER_ID, { clientReadOnlyMetadata: { r: 1 } });
    const session = await user.createSession({ expiresInMillis: 60_000, isImpersonation: true });
    await user.delete();
    expect(calls.map(pathOf)).toEqual([
      `GET /users/${TEST_USER_ID}`,
      `PATCH /users/${TEST_USER_ID}`,
      `PATCH /users/${TEST_USER_ID}`,
      `PATCH /users/${TEST_USER_ID}`,
      "POST /auth/sessions",
      `DELETE /users/${TEST_USER_ID}`,
    ]);
    expect(bodyOf(calls[1]!)).toEqual({
      server_metadata: { x: 1 },
      password: "new-pw",
      primary_email_verified: false,
      risk_scores: { sign_up: { bot: 5, free_trial_abuse: 6 } },
    });
    expect(bodyOf(calls[2]!)).toEqual({ primary_email: "g@example.com", primary_email_verified: true });
    expect(bodyOf(calls[3]!)).toEqual({ client_read_only_metadata: { r: 1 } });
    expect(bodyOf(calls[4]!)).toEqual({ user_id: TEST_USER_ID, expires_in_millis: 60_000, is_impersonation: true });
    expect(await session.getTokens()).toEqual({ accessToken: "at", refreshToken: "rt" });
  });

  it("needs a secret server key", () => {
    expect(() => new StackServerApp({ projectId: "internal", baseUrl: "http://api.test" })).toThrow(/secretServerKey/);
  });
});

describe("StackServerApp current user from a request", () => {
  async function withSigner(): Promise<{ signer: TestSigner; responder: Responder }> {
    const signer = await testSigner();
    const responder = router({
      "GET /projects/internal/.well-known/jwks.json": () => json(signer.jwks),
      "GET /users/me": () => json(serverUserJson()),
    });
    return { signer, responder };
  }

  it("verifies the token locally against the JWKS, then reads the user", async () => {
    const { signer, responder } = await withSigner();
    const { app, calls } = setup(responder);
    const token = await signer.sign(claims(T0, 600_000));
    const user = await app.getUser({ tokenStore: { headers: new Headers({ "x-stack-access-token": token }) } });
    expect(user?.serverMetadata).toEqual({ plan: "pro" });
    expect(calls.map(pathOf)).toEqual(["GET /projects/internal/.well-known/jwks.json", "GET /users/me"]);
    // The JWKS is fetched without project credentials.
    expect(calls[0]!.headers["x-stack-secret-server-key"]).toBeUndefined();
    expect(calls[1]!.headers["x-stack-access-token"]).toBe(token);
  });

  it("accepts Authorization: Bearer <token>", async () => {
    const { signer, responder } = await withSigner();
    const { app } = setup(responder);
    const token = await signer.sign(claims(T0, 600_000));
    expect(await app.getUser({ tokenStore: { headers: { authorization: `Bearer ${token}` } } })).not.toBeNull();
  });

  it("rejects a token signed with another key without asking for the user", async () => {
    const { responder } = await withSigner();
    const forger = await testSigner("test-key-001");
    const { app, calls } = setup(responder);
    const forged = await forger.sign(claims(T0, 600_000));
    expect(await app.getUser({ tokenStore: { accessToken: forged, refreshToken: null } })).toBeNull();
    expect(calls.map(pathOf)).not.toContain("GET /users/me");
  });

  it("rejects an expired token by the injected clock", async () => {
    const { signer, responder } = await withSigner();
    const clock = manualClock(T0);
    const { app } = setup(responder, clock);
    const token = await signer.sign(claims(T0 - 600_000, 300_000));
    expect(await app.getUser({ tokenStore: { accessToken: token, refreshToken: null } })).toBeNull();
  });

  it("caches the key set for 300 s of the injected clock", async () => {
    const { signer, responder } = await withSigner();
    const { app, calls, clock } = setup(responder);
    const read = async () =>
      app.getUser({ tokenStore: { accessToken: await signer.sign(claims(clock.now(), 600_000)), refreshToken: null } });
    await read();
    clock.advance(299_000);
    await read();
    expect(calls.filter((c) => c.url.includes("jwks")).length).toBe(1);
    clock.advance(1_000);
    await read();
    expect(calls.filter((c) => c.url.includes("jwks")).length).toBe(2);
  });

  it("asks for the wider key set for anonymous tokens", async () => {
    const { signer, responder } = await withSigner();
    const { app, calls } = setup(responder);
    const anon = await signer.sign(
      claims(T0, 600_000, {
        aud: "internal:anon",
        is_anonymous: true,
        is_restricted: true,
        restricted_reason: { type: "anonymous" },
      }),
    );
    await app.getUser({ or: "anonymous", tokenStore: { accessToken: anon, refreshToken: null } });
    expect(new URL(calls[0]!.url).searchParams.get("include_anonymous")).toBe("true");
  });
});
