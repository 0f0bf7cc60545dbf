import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PUBLIC_CLIENT_SENTINEL } from "@authsim/sdk/contract";
import {
  DEV,
  INTERNAL,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  families,
  newProvider,
  server,
  signUp,
  type Fields,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * Request authentication, steps 7–9 of protocol.md §2.3 (keys, branch), and the per-route access check after it
 * (INSUFFICIENT_ACCESS_TYPE, ACCESS_TYPE_REQUIRED).
 */

describe.each(families)("credentials and route access with x-%s-* headers", (family) => {
  let provider: TestProvider;
  const probe = (headers: Fields, path = "/") => api(provider, path, { headers, family });

  beforeEach(() => {
    provider = newProvider();
  });
  afterEach(() => {
    expect(provider.unexpected).toEqual([]);
  });

  describe("client access", () => {
    it("accepts a client request without a publishable key (the project does not require one)", async () => {
      const response = await probe({ accessType: "client", projectId: DEV.id });
      expect(await response.text()).toContain(`Authentication: Client\n  Project: ${DEV.id}\n  User: None`);
    });

    it("accepts the valid publishable key", async () => {
      expect((await probe(client())).status).toBe(200);
    });

    it("rejects a wrong publishable key with INVALID_PUBLISHABLE_CLIENT_KEY even though keys are optional", async () => {
      const body = await expectKnownError(
        await probe(client({ publishableClientKey: "pck_wrong" })),
        "INVALID_PUBLISHABLE_CLIENT_KEY",
        401,
      );
      expect(body.details).toEqual({ project_id: DEV.id });
    });

    it("rejects another project's publishable key with INVALID_PUBLISHABLE_CLIENT_KEY", async () => {
      const response = await probe(client({ publishableClientKey: INTERNAL.keys.publishable_client_key }));
      await expectKnownError(response, "INVALID_PUBLISHABLE_CLIENT_KEY", 401);
    });

    it("counts the sentinel __stack_public_client__ as no key", async () => {
      expect((await probe(client({ publishableClientKey: PUBLIC_CLIENT_SENTINEL }))).status).toBe(200);
    });

    it("counts an empty publishable key header as absent", async () => {
      expect((await probe(client({ publishableClientKey: "" }))).status).toBe(200);
    });

    it("requires a key with PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT when the project says so, sentinel included", async () => {
      provider = newProvider({
        seed: { projects: [{ ...DEV, config: { ...DEV.config, require_publishable_client_key: true } }] },
      });
      const body = await expectKnownError(
        await probe({ accessType: "client", projectId: DEV.id }),
        "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
        401,
      );
      expect(body.details).toEqual({ project_id: DEV.id });
      const sentinel = client({ publishableClientKey: PUBLIC_CLIENT_SENTINEL });
      await expectKnownError(await probe(sentinel), "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", 401);
      expect((await probe(client())).status).toBe(200);
    });
  });

  describe("server access", () => {
    it("accepts the valid secret server key", async () => {
      expect(await (await probe(server())).text()).toContain("Authentication: Server");
    });

    it("rejects a server request without a key with SERVER_AUTHENTICATION_REQUIRED", async () => {
      await expectKnownError(
        await probe({ accessType: "server", projectId: DEV.id }),
        "SERVER_AUTHENTICATION_REQUIRED",
        401,
      );
    });

    it("counts an empty secret key header as absent", async () => {
      await expectKnownError(await probe(server({ secretServerKey: "" })), "SERVER_AUTHENTICATION_REQUIRED", 401);
    });

    it("does not let a publishable or admin key authenticate server access", async () => {
      const withClientKey = {
        accessType: "server",
        projectId: DEV.id,
        publishableClientKey: DEV.keys.publishable_client_key,
      };
      await expectKnownError(await probe(withClientKey), "SERVER_AUTHENTICATION_REQUIRED", 401);
      const withAdminKey = {
        accessType: "server",
        projectId: DEV.id,
        superSecretAdminKey: DEV.keys.super_secret_admin_key,
      };
      await expectKnownError(await probe(withAdminKey), "SERVER_AUTHENTICATION_REQUIRED", 401);
    });

    it("rejects a wrong secret key with INVALID_SECRET_SERVER_KEY", async () => {
      const body = await expectKnownError(
        await probe(server({ secretServerKey: "ssk_wrong" })),
        "INVALID_SECRET_SERVER_KEY",
        401,
      );
      expect(body.details).toEqual({ project_id: DEV.id });
    });

    it("rejects another project's secret key with INVALID_SECRET_SERVER_KEY", async () => {
      await expectKnownError(
        await probe(server({ secretServerKey: INTERNAL.keys.secret_server_key })),
        "INVALID_SECRET_SERVER_KEY",
        401,
      );
    });

    it("rejects a revoked key with INVALID_SECRET_SERVER_KEY", async () => {
      await provider.store.transact((t) => {
        for (const set of [...t.apiKeySets.values()]) {
          if (set.projectId === DEV.id)
            t.apiKeySets.set(set.id, { ...set, manuallyRevokedAtMillis: provider.clock.now() });
        }
      });
      await expectKnownError(await probe(server()), "INVALID_SECRET_SERVER_KEY", 401);
    });

    it("rejects an expired key with INVALID_SECRET_SERVER_KEY once the clock passes its expiry", async () => {
      await provider.store.transact((t) => {
        for (const set of [...t.apiKeySets.values()]) {
          if (set.projectId === DEV.id)
            t.apiKeySets.set(set.id, { ...set, expiresAtMillis: provider.clock.now() + 60_000 });
        }
      });
      expect((await probe(server())).status).toBe(200);
      provider.clock.advance(60_000);
      await expectKnownError(await probe(server()), "INVALID_SECRET_SERVER_KEY", 401);
    });
  });

  describe("admin access", () => {
    it("accepts the valid super secret admin key", async () => {
      expect(await (await probe(admin())).text()).toContain("Authentication: Admin");
    });

    it("rejects an admin request without a key with ADMIN_AUTHENTICATION_REQUIRED", async () => {
      await expectKnownError(
        await probe({ accessType: "admin", projectId: DEV.id }),
        "ADMIN_AUTHENTICATION_REQUIRED",
        401,
      );
      await expectKnownError(await probe(admin({ superSecretAdminKey: "" })), "ADMIN_AUTHENTICATION_REQUIRED", 401);
    });

    it("does not let a secret server key authenticate admin access", async () => {
      const withServerKey = { accessType: "admin", projectId: DEV.id, secretServerKey: DEV.keys.secret_server_key };
      await expectKnownError(await probe(withServerKey), "ADMIN_AUTHENTICATION_REQUIRED", 401);
    });

    it("rejects a wrong admin key with INVALID_SUPER_SECRET_ADMIN_KEY", async () => {
      const body = await expectKnownError(
        await probe(admin({ superSecretAdminKey: "sak_wrong" })),
        "INVALID_SUPER_SECRET_ADMIN_KEY",
        401,
      );
      expect(body.details).toEqual({ project_id: DEV.id });
    });
  });

  describe("step 8: branch", () => {
    it("accepts the main branch named explicitly", async () => {
      expect((await probe(client({ branchId: "main" }))).status).toBe(200);
    });

    it("rejects an unknown branch with BRANCH_DOES_NOT_EXIST", async () => {
      const body = await expectKnownError(await probe(client({ branchId: "feature" })), "BRANCH_DOES_NOT_EXIST", 400);
      expect(body.details).toEqual({ branch_id: "feature" });
    });

    it("checks the keys before the branch", async () => {
      await expectKnownError(
        await probe(server({ secretServerKey: "wrong", branchId: "feature" })),
        "INVALID_SECRET_SERVER_KEY",
        401,
      );
    });
  });

  describe("route access", () => {
    it("rejects a client on a server operation with INSUFFICIENT_ACCESS_TYPE listing the allowed types", async () => {
      const body = await expectKnownError(await probe(client(), "/users"), "INSUFFICIENT_ACCESS_TYPE", 401);
      expect(body.details).toEqual({ actual_access_type: "client", allowed_access_types: ["server", "admin"] });
    });

    it("rejects a server on an admin operation with INSUFFICIENT_ACCESS_TYPE", async () => {
      const body = await expectKnownError(
        await probe(server(), "/internal/projects/current"),
        "INSUFFICIENT_ACCESS_TYPE",
        401,
      );
      expect(body.details).toEqual({ actual_access_type: "server", allowed_access_types: ["admin"] });
    });

    it("authenticates the request before checking the route's access types", async () => {
      await expectKnownError(
        await probe(client({ publishableClientKey: "wrong" }), "/users"),
        "INVALID_PUBLISHABLE_CLIENT_KEY",
        401,
      );
    });

    it("rejects an unauthenticated request to an authenticated operation with ACCESS_TYPE_REQUIRED", async () => {
      await expectKnownError(await probe({}, "/users/me"), "ACCESS_TYPE_REQUIRED", 400);
    });

    it("lets server and admin access reach client operations", async () => {
      const user = await signUp(provider);
      expect((await probe(server({ accessToken: user.access_token }), "/users/me")).status).toBe(200);
      expect((await probe(admin({ accessToken: user.access_token }), "/users/me")).status).toBe(200);
      await expectJson(await probe(admin(), "/internal/projects/current"));
    });
  });
});

describe("mixed header families", () => {
  it("accepts a request whose headers mix x-stack-* and x-hexclave-* names", async () => {
    const provider = newProvider();
    const response = await api(provider, "/", {
      raw: {
        "x-hexclave-access-type": "server",
        "x-stack-project-id": DEV.id,
        "X-Hexclave-Secret-Server-Key": DEV.keys.secret_server_key,
      },
    });
    expect(await response.text()).toContain("Authentication: Server");
  });
});
