import { describe, expect, it } from "vitest";
import type { ApiKeyFirstViewJson, ApiKeyJson } from "@authsim/sdk/contract";
import {
  admin,
  api,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  server,
  signUp,
  START_MILLIS,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as, seedTeam } from "../../../test-support/account.ts";
import { parseApiKeySecret } from "../../auth/api-key-format.ts";

/** User and team API keys over HTTP (protocol.md §5.8): the first view and later views, schemas, access. The rules: api-keys.seam.test.ts. */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const HOUR = 3_600_000;
const createUserKey = (fields: Record<string, unknown> = {}, headers = as(user)) =>
  api(provider, "/user-api-keys", {
    headers,
    json: { user_id: "me", description: "ci", expires_at_millis: null, ...fields },
  });
const check = (type: "user" | "team", apiKey: string, headers = server()) =>
  api(provider, `/${type}-api-keys/check`, { headers, json: { api_key: apiKey } });
const revoke = (key: { id: string }, type = "user", headers = as(user)) =>
  api(provider, `/${type}-api-keys/${key.id}`, { method: "PATCH", headers, json: { revoked: true } });

describe("user API keys", () => {
  it("shows the full value once at creation (200), then only the last four characters", async () => {
    const created = await expectJson<ApiKeyFirstViewJson>(
      await createUserKey({ expires_at_millis: START_MILLIS + HOUR }),
    );
    expect(created).toMatchObject({
      type: "user",
      user_id: user.user_id,
      description: "ci",
      is_public: false,
      created_at_millis: START_MILLIS,
      expires_at_millis: START_MILLIS + HOUR,
    });
    expect(parseApiKeySecret(created.value)).toEqual({
      id: created.id,
      type: "user",
      isPublic: false,
      isCloudVersion: false,
    });
    expect(created).not.toHaveProperty("manually_revoked_at_millis");
    const listed = await expectJson<{ items: ApiKeyJson[] }>(
      await api(provider, "/user-api-keys?user_id=me", { headers: as(user) }),
    );
    expect(listed.items).toEqual([{ ...created, value: { last_four: (created.value as string).slice(-4) } }]);
    const read = await expectJson(
      await api(provider, `/user-api-keys/${created.id}?user_id=${user.user_id}`, { headers: as(user) }),
    );
    expect(read).toEqual(listed.items[0]);
  });

  it("checks a valid key, named by its secret, for server code", async () => {
    const created = await expectJson<ApiKeyFirstViewJson>(await createUserKey({ is_public: true }));
    expect(created.value).toMatch(/^pk_[0-9a-z]{77}user3574ck4u7h[0-9a-f]{8}$/);
    const checked = await expectJson<ApiKeyJson>(await check("user", created.value as string));
    expect(checked).toMatchObject({
      id: created.id,
      user_id: user.user_id,
      is_public: true,
      value: { last_four: (created.value as string).slice(-4) },
    });
  });

  it("updates the description and expiry, and revokes once, keeping the first revoke time", async () => {
    const created = await expectJson<ApiKeyFirstViewJson>(await createUserKey());
    const path = `/user-api-keys/${created.id}`;
    const patched = await expectJson(
      await api(provider, path, {
        method: "PATCH",
        headers: as(user),
        json: { description: "renamed", expires_at_millis: START_MILLIS + HOUR },
      }),
    );
    expect(patched).toMatchObject({ description: "renamed", expires_at_millis: START_MILLIS + HOUR });
    expect(await expectJson(await revoke(created))).toMatchObject({ manually_revoked_at_millis: START_MILLIS });
    provider.clock.advance(1_000);
    expect(await expectJson(await revoke(created))).toMatchObject({ manually_revoked_at_millis: START_MILLIS });
    await expectKnownError(
      await api(provider, path, { method: "PATCH", headers: as(user), json: { revoked: false } }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("refuses user_id and team_id together with a SCHEMA_ERROR", async () => {
    const body = await expectKnownError(
      await createUserKey({ team_id: "5d0f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain("user_id and team_id cannot both be given");
    const listing = await expectKnownError(
      await api(provider, "/user-api-keys?user_id=me&team_id=5d0f2a3b-4c5d-4e6f-8a7b-9c0d1e2f3a4b", {
        headers: as(user),
      }),
      "SCHEMA_ERROR",
      400,
    );
    expect(listing.error).toContain("query contains unknown properties: team_id");
  });

  it("words a list without its owner as upstream's one-line SCHEMA_ERROR, and another user's keys as its plain 403", async () => {
    const missing = await expectKnownError(
      await api(provider, "/user-api-keys", { headers: server() }),
      "SCHEMA_ERROR",
      400,
    );
    expect(missing.error).toBe("user_id is required for user API keys");
    const other = await signUp(provider);
    const refused = await api(provider, `/user-api-keys?user_id=${other.user_id}`, { headers: as(user) });
    expect([refused.status, await refused.text()]).toEqual([403, "Client can only manage their own api keys"]);
  });
});

describe("POST /{user,team}-api-keys/check", () => {
  it("is for server and admin access only (INSUFFICIENT_ACCESS_TYPE for a client)", async () => {
    const created = await expectJson<ApiKeyFirstViewJson>(await createUserKey());
    await expectKnownError(await check("user", created.value as string, as(user)), "INSUFFICIENT_ACCESS_TYPE", 401);
    await expectJson(await check("user", created.value as string, admin()));
  });
});

describe("team API keys", () => {
  it("are made, listed and checked by a member holding $manage_api_keys; a plain member finds none", async () => {
    const teamId = await seedTeam(provider, [user.user_id]);
    // The member defaults do not include $manage_api_keys: as the real service, the keys are then "not found".
    await expectKnownError(
      await api(provider, `/team-api-keys?team_id=${teamId}`, { headers: as(user) }),
      "API_KEY_NOT_FOUND",
      404,
    );
    await expectJson(
      await api(provider, `/team-permissions/${teamId}/${user.user_id}/$manage_api_keys`, {
        headers: server(),
        json: {},
      }),
      201,
    );
    const response = await api(provider, "/team-api-keys", {
      headers: as(user),
      json: { team_id: teamId, description: "deploys", expires_at_millis: null },
    });
    const created = await expectJson<ApiKeyFirstViewJson>(response);
    expect(created).toMatchObject({ type: "team", team_id: teamId, description: "deploys" });
    expect(created.value).toMatch(/^sk_[0-9a-z]{77}team1574ck4u7h[0-9a-f]{8}$/);
    const listed = await expectJson<{ items: ApiKeyJson[] }>(
      await api(provider, `/team-api-keys?team_id=${teamId}`, { headers: as(user) }),
    );
    expect(listed.items.map((k) => k.id)).toEqual([created.id]);
    expect(await expectJson(await check("team", created.value as string))).toMatchObject({ team_id: teamId });
    await expectKnownError(await check("user", created.value as string), "WRONG_API_KEY_TYPE", 400);
    expect(await expectJson(await revoke(created, "team"))).toMatchObject({ manually_revoked_at_millis: START_MILLIS });
  });
});
