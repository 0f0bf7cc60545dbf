import { describe, expect, it } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { AdminSessionUnsupportedError } from "../session/admin-session.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json, knownError, recordingSleep, sequence, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { adminProjectJson } from "../test-support/wire-fixtures.ts";
import { StackAdminApp, type StackAdminAppOptions } from "./admin-app.ts";

function setup(responder: Responder, options: Partial<StackAdminAppOptions>) {
  const ff = fakeFetch(responder);
  const app = new StackAdminApp({
    projectId: "internal",
    baseUrl: "http://api.test",
    fetch: ff.fetch,
    clock: manualClock(1_750_000_000_000),
    sleep: recordingSleep().sleep,
    ...options,
  });
  return { app, calls: ff.calls };
}

describe("StackAdminApp", () => {
  it("reads the admin project with the super secret admin key", async () => {
    const { app, calls } = setup(router({ "GET /internal/projects/current": () => json(adminProjectJson()) }), {
      superSecretAdminKey: "ssak",
    });
    const project = await app.getProject();
    expect(calls[0]!.headers["x-stack-access-type"]).toBe("admin");
    expect(calls[0]!.headers["x-stack-super-secret-admin-key"]).toBe("ssak");
    expect(project).toMatchObject({
      id: "internal",
      description: "Stack's admin dashboard",
      isProductionMode: false,
      ownerTeamId: null,
      config: {
        allowLocalhost: true,
        signUpEnabled: true,
        oauthProviders: [{ id: "github", providerConfigId: "github", type: "shared" }],
        emailConfig: { type: "shared" },
        domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }],
        teamCreatorDefaultPermissions: [{ id: "team_admin" }],
        oauthAccountMergeStrategy: "link_method",
      },
    });
    expect(project.createdAt).toEqual(new Date(1_600_000_000_000));
  });

  it("sends a project-owner session as x-stack-admin-access-token, asking again after it is refused", async () => {
    let n = 0;
    const { app, calls } = setup(
      sequence(
        () => knownError("ADMIN_ACCESS_TOKEN_EXPIRED", 401),
        () => json(adminProjectJson()),
      ),
      { projectOwnerSession: async () => `owner-token-${n++}` },
    );
    await app.getProject();
    expect(calls.map((c) => c.headers["x-stack-admin-access-token"])).toEqual(["owner-token-0", "owner-token-1"]);
    expect(calls[0]!.headers["x-stack-super-secret-admin-key"]).toBeUndefined();
  });

  it("refuses the user token refresh when built from a project-owner session", async () => {
    const { app } = setup(() => json({}), {
      projectOwnerSession: "owner",
      tokenStore: memoryTokenStore({ refreshToken: "rt" }),
    });
    await expect(app.getAccessToken()).rejects.toBeInstanceOf(AdminSessionUnsupportedError);
    await expect(app.getAccessToken()).rejects.toThrow(/cannot be used for token refresh/);
  });

  it("needs an admin key or a project-owner session", () => {
    expect(() => new StackAdminApp({ projectId: "internal", baseUrl: "http://api.test" })).toThrow(
      /superSecretAdminKey/,
    );
  });
});
