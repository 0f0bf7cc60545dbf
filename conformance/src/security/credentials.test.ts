import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fillPathParams, operations, type Operation } from "@authsim/sdk/contract";
import { buildWorld, keyHeaders, projects, START_MILLIS, type World } from "../fuzz/world.ts";
import { api, expectKnownError, expectOk, families, knownErrorOf, serverApp } from "./support.ts";

/**
 * Project keys (protocol.md §2.3 step 7): a key of one kind never stands in for another, keys of one project are
 * worthless on another, revoked and expired key sets stop working, and so do users' API keys (spec §4). Every
 * server and admin operation of the contract is tried with client credentials.
 */
let world: World;

beforeAll(async () => {
  world = await buildWorld({ seed: "authsim-security-credentials" });
});
beforeEach(() => {
  world.provider.restore(world.baseline);
});

const concrete = (operation: Operation) =>
  fillPathParams(operation.path, (name) =>
    name === "user_id" ? world.users.a.userId : "00000000-0000-4000-8000-000000000000",
  );

describe("a key of a lower kind on a higher route", () => {
  it("every server and admin operation refuses client access with INSUFFICIENT_ACCESS_TYPE", async () => {
    const checked: string[] = [];
    for (const operation of operations.filter((o) => o.access === "server" || o.access === "admin")) {
      const answer = await api(
        world,
        operation.method,
        concrete(operation),
        keyHeaders("dev", "client", { accessToken: world.users.a.accessToken }),
      );
      expect(knownErrorOf(answer), `${operation.id}: ${answer.status} ${answer.text.slice(0, 200)}`).toBe(
        "INSUFFICIENT_ACCESS_TYPE",
      );
      expect(answer.json?.details).toMatchObject({ actual_access_type: "client" });
      checked.push(operation.id);
    }
    expect(checked.length).toBeGreaterThan(10);
  });

  it("every admin operation refuses server access with INSUFFICIENT_ACCESS_TYPE", async () => {
    for (const operation of operations.filter((o) => o.access === "admin")) {
      const answer = await api(world, operation.method, concrete(operation), keyHeaders("dev", "server"));
      expect(knownErrorOf(answer), `${operation.id}: ${answer.status} ${answer.text.slice(0, 200)}`).toBe(
        "INSUFFICIENT_ACCESS_TYPE",
      );
    }
  });

  it.each(families)(
    "a server request with only the publishable key, or with it in the secret header, is refused (x-%s-*)",
    async (family) => {
      const path = `/users/${world.users.a.userId}`;
      const publishable = projects.dev.keys.publishable_client_key;
      expectKnownError(
        await api(
          world,
          "GET",
          path,
          { accessType: "server", projectId: projects.dev.id, publishableClientKey: publishable },
          { family },
        ),
        "SERVER_AUTHENTICATION_REQUIRED",
      );
      expectKnownError(
        await api(
          world,
          "GET",
          path,
          { accessType: "server", projectId: projects.dev.id, secretServerKey: publishable },
          { family },
        ),
        "INVALID_SECRET_SERVER_KEY",
      );
      expectKnownError(
        await api(
          world,
          "GET",
          path,
          { accessType: "server", projectId: projects.dev.id, secretServerKey: "" },
          { family },
        ),
        "SERVER_AUTHENTICATION_REQUIRED",
      );
    },
  );

  it.each(families)("an admin request with the secret server key is refused (x-%s-*)", async (family) => {
    const secret = projects.dev.keys.secret_server_key;
    const answer = await api(
      world,
      "GET",
      "/internal/projects/current",
      { accessType: "admin", projectId: projects.dev.id, secretServerKey: secret },
      { family },
    );
    expectKnownError(answer, "ADMIN_AUTHENTICATION_REQUIRED");
    const inAdminHeader = await api(
      world,
      "GET",
      "/internal/projects/current",
      { accessType: "admin", projectId: projects.dev.id, superSecretAdminKey: secret },
      { family },
    );
    expectKnownError(inAdminHeader, "INVALID_SUPER_SECRET_ADMIN_KEY");
  });

  it("a client request is checked against the publishable key only: a secret key in its place is invalid", async () => {
    const answer = await api(world, "GET", "/projects/current", {
      accessType: "client",
      projectId: projects.dev.id,
      publishableClientKey: projects.dev.keys.secret_server_key,
    });
    expectKnownError(answer, "INVALID_PUBLISHABLE_CLIENT_KEY");
  });
});

describe("keys of another project", () => {
  it.each(["client", "server", "admin"] as const)(
    "are refused for %s access, naming the project asked for",
    async (type) => {
      const foreign = keyHeaders("other", type);
      const answer = await api(world, "GET", type === "admin" ? "/internal/projects/current" : "/projects/current", {
        ...foreign,
        projectId: projects.dev.id,
      });
      const code =
        type === "client"
          ? "INVALID_PUBLISHABLE_CLIENT_KEY"
          : type === "server"
            ? "INVALID_SECRET_SERVER_KEY"
            : "INVALID_SUPER_SECRET_ADMIN_KEY";
      expect(expectKnownError(answer, code).details).toEqual({ project_id: projects.dev.id });
    },
  );

  it("through the SDK: a server app with another project's secret key gets INVALID_SECRET_SERVER_KEY", async () => {
    const app = serverApp(world, "dev", projects.other.keys.secret_server_key);
    const error = await app.listUsers({ limit: 1 }).then(
      () => null,
      (e: unknown) => e,
    );
    expect((error as { code?: string } | null)?.code).toBe("INVALID_SECRET_SERVER_KEY");
  });
});

describe("revoked and expired key sets", () => {
  async function createKeySet(expiresAtMillis: number) {
    const created = expectOk(
      await api(world, "POST", "/internal/api-keys", keyHeaders("dev", "admin"), {
        body: {
          description: "security",
          expires_at_millis: expiresAtMillis,
          has_publishable_client_key: true,
          has_secret_server_key: true,
          has_super_secret_admin_key: true,
        },
      }),
    );
    return {
      id: String(created.id),
      client: {
        accessType: "client",
        projectId: projects.dev.id,
        publishableClientKey: String(created.publishable_client_key),
      },
      server: { accessType: "server", projectId: projects.dev.id, secretServerKey: String(created.secret_server_key) },
      admin: {
        accessType: "admin",
        projectId: projects.dev.id,
        superSecretAdminKey: String(created.super_secret_admin_key),
      },
    } as const;
  }

  async function expectRefused(set: Awaited<ReturnType<typeof createKeySet>>) {
    expectKnownError(await api(world, "GET", "/projects/current", set.client), "INVALID_PUBLISHABLE_CLIENT_KEY");
    expectKnownError(await api(world, "GET", "/users", set.server), "INVALID_SECRET_SERVER_KEY");
    expectKnownError(
      await api(world, "GET", "/internal/projects/current", set.admin),
      "INVALID_SUPER_SECRET_ADMIN_KEY",
    );
  }

  it("work until revoked, then every key of the set is refused", async () => {
    const set = await createKeySet(START_MILLIS + 365 * 86_400_000);
    expectOk(await api(world, "GET", "/users", set.server));
    expectOk(
      await api(world, "PATCH", `/internal/api-keys/${set.id}`, keyHeaders("dev", "admin"), {
        body: { revoked: true },
      }),
    );
    await expectRefused(set);
  });

  it("work until they expire on the provider's clock, then every key of the set is refused", async () => {
    const set = await createKeySet(world.provider.clock.now() + 60_000);
    expectOk(await api(world, "GET", "/internal/projects/current", set.admin));
    world.provider.clock.advance(60_001);
    await expectRefused(set);
  });
});

describe("users' API keys (spec §4)", () => {
  async function userKey(expiresAtMillis: number | null) {
    const created = expectOk(
      await api(
        world,
        "POST",
        "/user-api-keys",
        keyHeaders("dev", "client", { accessToken: world.users.a.accessToken }),
        {
          body: { user_id: "me", description: "security", expires_at_millis: expiresAtMillis },
        },
      ),
    );
    return { id: String(created.id), value: String(created.value) };
  }
  const check = (value: string) =>
    api(world, "POST", "/user-api-keys/check", keyHeaders("dev", "server"), { body: { api_key: value } });

  it("a revoked key is refused with API_KEY_REVOKED", async () => {
    const key = await userKey(null);
    expect(expectOk(await check(key.value)).user_id).toBe(world.users.a.userId);
    const revoke = await api(
      world,
      "PATCH",
      `/user-api-keys/${key.id}?user_id=me`,
      keyHeaders("dev", "client", { accessToken: world.users.a.accessToken }),
      { body: { revoked: true } },
    );
    expectOk(revoke);
    expectKnownError(await check(key.value), "API_KEY_REVOKED");
  });

  it("an expired key is refused with API_KEY_EXPIRED", async () => {
    const key = await userKey(world.provider.clock.now() + 1_000);
    world.provider.clock.advance(1_001);
    expectKnownError(await check(key.value), "API_KEY_EXPIRED");
  });

  it("another user cannot revoke it", async () => {
    const key = await userKey(null);
    const answer = await api(
      world,
      "PATCH",
      `/user-api-keys/${key.id}?user_id=me`,
      keyHeaders("dev", "client", { accessToken: world.users.b.accessToken }),
      { body: { revoked: true } },
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expectOk(await check(key.value));
  });

  it("a key of one project is unknown on another", async () => {
    const key = await userKey(null);
    expectKnownError(
      await api(world, "POST", "/user-api-keys/check", keyHeaders("other", "server"), { body: { api_key: key.value } }),
      "API_KEY_NOT_FOUND",
    );
  });
});
