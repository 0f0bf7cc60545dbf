import { describe, expect, it } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { fakeFetch, json, knownError, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { TEST_USER_ID } from "../test-support/tokens.ts";
import { StackAdminApp } from "./admin-app.ts";

/** Internal API keys (sdk-surface.md §8, §19) and the server's key check (spec §8: null for an invalid key). */

const T0 = 1_750_000_000_000;
const ID = "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3";

function setup(responder: Responder) {
  const ff = fakeFetch(responder);
  const clock = manualClock(T0);
  const app = new StackAdminApp({
    projectId: "internal",
    baseUrl: "http://api.test",
    superSecretAdminKey: "sak",
    secretServerKey: "ssk",
    fetch: ff.fetch,
    clock,
    sleep: recordingSleep().sleep,
  });
  return { app, calls: ff.calls, clock };
}

const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");
const keySet = { id: ID, description: "ci", expires_at_millis: T0 + 1_000, created_at_millis: T0 };

describe("internal API keys", () => {
  it("create sends the has_* flags and returns the full values once", async () => {
    const { app, calls } = setup(
      router({ "POST /internal/api-keys": () => json({ ...keySet, secret_server_key: "ssk_full" }) }),
    );
    const created = await app.createInternalApiKey({
      description: "ci",
      expiresAt: new Date(T0 + 1_000),
      hasPublishableClientKey: false,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(bodyOf(calls[0]!)).toEqual({
      description: "ci",
      expires_at_millis: T0 + 1_000,
      has_publishable_client_key: false,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
    });
    expect(created).toMatchObject({ id: ID, secretServerKey: "ssk_full", manuallyRevokedAt: null });
    expect(created).not.toHaveProperty("publishableClientKey");
  });

  it("list shows last fours, reads expired before manually revoked (spec §4), and revoke() PATCHes revoked: true", async () => {
    const { app, calls, clock } = setup(
      router({
        "GET /internal/api-keys": () =>
          json({
            items: [{ ...keySet, manually_revoked_at_millis: T0, secret_server_key: { last_four: "wxyz" } }],
            is_paginated: false,
          }),
        [`PATCH /internal/api-keys/${ID}`]: () => json(keySet),
      }),
    );
    const [key] = await app.listInternalApiKeys();
    expect([key!.secretServerKey, key!.publishableClientKey]).toEqual([{ lastFour: "wxyz" }, null]);
    expect(key!.whyInvalid()).toBe("manually-revoked");
    clock.advance(1_001);
    expect([key!.whyInvalid(), key!.isValid()]).toEqual(["expired", false]);
    await key!.revoke();
    expect(bodyOf(calls[1]!)).toEqual({ revoked: true });
  });
});

describe("server key check", () => {
  it("answers the key, null for an API_KEY_NOT_VALID error, and throws other errors", async () => {
    const answers: Record<string, () => Response> = {
      good: () =>
        json({
          id: ID,
          type: "user",
          user_id: TEST_USER_ID,
          description: "d",
          created_at_millis: T0,
          is_public: false,
          value: { last_four: "good" },
        }),
      revoked: () => knownError("API_KEY_REVOKED", 401),
      wrong: () => knownError("WRONG_API_KEY_TYPE", 400, { expected_type: "user", actual_type: "team" }),
      broken: () => knownError("SCHEMA_ERROR", 400, { message: "bad" }),
    };
    const { app, calls } = setup(
      router({ "POST /user-api-keys/check": (c) => answers[(bodyOf(c) as { api_key: string }).api_key]!() }),
    );
    expect(await app.checkApiKey({ type: "user", apiKey: "good" })).toMatchObject({
      id: ID,
      userId: TEST_USER_ID,
      value: { lastFour: "good" },
    });
    expect(await app.checkApiKey({ type: "user", apiKey: "revoked" })).toBeNull();
    expect(await app.getUser({ apiKey: "wrong" })).toBeNull();
    await expect(app.checkApiKey({ type: "user", apiKey: "broken" })).rejects.toMatchObject({ code: "SCHEMA_ERROR" });
    expect(calls[0]!.headers["x-stack-access-type"]).toBe("admin");
  });
});
