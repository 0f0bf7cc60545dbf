import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NEVER_EXPIRES_MILLIS, type InternalApiKeyFirstViewJson, type InternalApiKeyJson } from "@authsim/sdk/contract";
import {
  DEV,
  START_MILLIS,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";

/** Internal (project) API keys, admin only (spec §3; protocol.md §5.8, §6.5). */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const DAY = 24 * 3_600_000;
const create = (fields: Record<string, unknown> = {}) =>
  api(provider, "/internal/api-keys", {
    headers: admin(),
    json: {
      description: "ci",
      expires_at_millis: START_MILLIS + DAY,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
      ...fields,
    },
  });
const list = async () =>
  (await expectJson<{ items: InternalApiKeyJson[] }>(await api(provider, "/internal/api-keys", { headers: admin() })))
    .items;

describe("internal API keys", () => {
  it("lists the seeded set, which never expires, by last four characters only", async () => {
    const [seeded, ...rest] = await list();
    expect(rest).toEqual([]);
    expect(seeded).toEqual({
      id: seeded!.id,
      description: "Seeded keys",
      expires_at_millis: NEVER_EXPIRES_MILLIS,
      created_at_millis: START_MILLIS,
      publishable_client_key: { last_four: DEV.keys.publishable_client_key.slice(-4) },
      secret_server_key: { last_four: DEV.keys.secret_server_key.slice(-4) },
      super_secret_admin_key: { last_four: DEV.keys.super_secret_admin_key.slice(-4) },
    });
  });

  it("creates a set whose full values are shown once and authenticate requests", async () => {
    const created = await expectJson<InternalApiKeyFirstViewJson>(await create());
    expect(created).toMatchObject({
      description: "ci",
      expires_at_millis: START_MILLIS + DAY,
      created_at_millis: START_MILLIS,
    });
    expect(created.publishable_client_key).toMatch(/^pck_authsim_[0-9a-z]{45}$/);
    expect(created.secret_server_key).toMatch(/^ssk_authsim_[0-9a-z]{45}$/);
    expect(created).not.toHaveProperty("super_secret_admin_key");
    const read = await expectJson<InternalApiKeyJson>(
      await api(provider, `/internal/api-keys/${created.id}`, { headers: admin() }),
    );
    expect(read.secret_server_key).toEqual({ last_four: created.secret_server_key!.slice(-4) });
    expect((await list())[0]!.id).toBe(created.id);
    await expectJson(
      await api(provider, "/users", { headers: server({ secretServerKey: created.secret_server_key! }) }),
    );
  });

  it("revokes a set (keeping the first time), after which its keys stop authenticating", async () => {
    const created = await expectJson<InternalApiKeyFirstViewJson>(await create());
    const path = `/internal/api-keys/${created.id}`;
    expect(
      await expectJson(
        await api(provider, path, { method: "PATCH", headers: admin(), json: { revoked: true, description: "old" } }),
      ),
    ).toMatchObject({
      description: "old",
      manually_revoked_at_millis: START_MILLIS,
    });
    provider.clock.advance(1_000);
    expect(
      await expectJson(await api(provider, path, { method: "PATCH", headers: admin(), json: { revoked: true } })),
    ).toMatchObject({ manually_revoked_at_millis: START_MILLIS });
    await expectKnownError(
      await api(provider, "/users", { headers: server({ secretServerKey: created.secret_server_key! }) }),
      "INVALID_SECRET_SERVER_KEY",
      401,
    );
    await expectKnownError(
      await api(provider, "/projects/current", {
        headers: client({ publishableClientKey: created.publishable_client_key! }),
      }),
      "INVALID_PUBLISHABLE_CLIENT_KEY",
      401,
    );
  });

  it("stops authenticating with a set once it expires", async () => {
    const created = await expectJson<InternalApiKeyFirstViewJson>(await create());
    provider.clock.advance(DAY);
    await expectKnownError(
      await api(provider, "/users", { headers: server({ secretServerKey: created.secret_server_key! }) }),
      "INVALID_SECRET_SERVER_KEY",
      401,
    );
  });

  it("needs at least one key (plain 400) and an expiry (SCHEMA_ERROR)", async () => {
    const none = await create({ has_publishable_client_key: false, has_secret_server_key: false });
    expect(none.status).toBe(400);
    expect(none.headers.get("x-stack-known-error")).toBeNull();
    await expectKnownError(await create({ expires_at_millis: null }), "SCHEMA_ERROR", 400);
  });

  it("answers API_KEY_NOT_FOUND (404) for an unknown id, and is admin only", async () => {
    await expectKnownError(
      await api(provider, "/internal/api-keys/0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", { headers: admin() }),
      "API_KEY_NOT_FOUND",
      404,
    );
    await expectKnownError(
      await api(provider, "/internal/api-keys", { headers: server() }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});
