import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { StackAdminApp } from "@authsim/sdk";
import { algNone, garbageTokens, resign, tamper } from "../fuzz/forge.ts";
import { buildWorld, keyHeaders, ORIGIN, projects, type World } from "../fuzz/world.ts";
import { api, expectKnownError, expectOk, families, knownErrorOf } from "./support.ts";

/**
 * Admin access tokens (protocol.md §2.3 step 7, §8): an access token of an `internal` user authenticates a project
 * only when one of the user's teams owns it. Tokens of users outside the owning team, of other projects' users,
 * forged or expired ones, and the token of an owner who left the team or was deleted are all refused.
 */
let world: World;
const OWNER_TEAM = projects.dev.owner_team_id!;

beforeAll(async () => {
  world = await buildWorld({ seed: "authsim-security-admin" });
});
beforeEach(() => {
  world.provider.restore(world.baseline);
});

describe.each(families)("admin access tokens (x-%s-* headers)", (family) => {
  const asAdmin = (token: string, project: "dev" | "other" = "dev", path = "/internal/projects/current") =>
    api(
      world,
      "GET",
      path,
      { accessType: "admin", projectId: projects[project].id, adminAccessToken: token },
      { family },
    );

  it("lets a member of the owning team administer the project (the control case)", async () => {
    expect(expectOk(await asAdmin(world.users.owner.accessToken)).id).toBe(projects.dev.id);
    // It grants whatever access type was asked for, server included (§2.3 step 7).
    const asServer = await api(
      world,
      "GET",
      `/users/${world.users.a.userId}`,
      { accessType: "server", projectId: projects.dev.id, adminAccessToken: world.users.owner.accessToken },
      { family },
    );
    expect(expectOk(asServer).id).toBe(world.users.a.userId);
  });

  it("refuses a dashboard user outside the owning team with ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    expectKnownError(await asAdmin(world.users.outsider.accessToken), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("refuses the owner on a project their team does not own", async () => {
    expectKnownError(await asAdmin(world.users.owner.accessToken, "other"), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("refuses tokens of ordinary projects' users, anonymous ones included", async () => {
    for (const user of [world.users.a, world.users.foreign, world.users.anon])
      expectKnownError(await asAdmin(user.accessToken), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("refuses forged admin tokens with UNPARSABLE_ADMIN_ACCESS_TOKEN", async () => {
    const forged = [
      tamper(world.users.outsider.accessToken, { sub: world.users.owner.userId }),
      algNone(world.users.owner.accessToken),
      algNone(world.users.outsider.accessToken, { sub: world.users.owner.userId }),
      await resign(world.users.owner.accessToken),
      ...garbageTokens,
    ];
    for (const token of forged) expectKnownError(await asAdmin(token), "UNPARSABLE_ADMIN_ACCESS_TOKEN");
  });

  it("refuses the owner's expired token with ADMIN_ACCESS_TOKEN_EXPIRED", async () => {
    expectKnownError(await asAdmin(world.stale.owner.accessToken), "ADMIN_ACCESS_TOKEN_EXPIRED");
  });

  it("stops accepting the owner's token once they leave the owning team", async () => {
    const left = await api(
      world,
      "DELETE",
      `/team-memberships/${OWNER_TEAM}/${world.users.owner.userId}`,
      keyHeaders("internal", "server"),
    );
    expectOk(left);
    expectKnownError(await asAdmin(world.users.owner.accessToken), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });

  it("answers the documented plain-text 401 once the owner is deleted", async () => {
    expectOk(await api(world, "DELETE", `/users/${world.users.owner.userId}`, keyHeaders("internal", "server")));
    const answer = await asAdmin(world.users.owner.accessToken);
    expect({ status: answer.status, text: answer.text, knownError: knownErrorOf(answer) }).toEqual({
      status: 401,
      text: "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.",
      knownError: null,
    });
  });

  it("does not let an admin access token stand in for a key on another project, even with that project's client key", async () => {
    const answer = await api(
      world,
      "GET",
      "/projects/current",
      { ...keyHeaders("other", "client"), adminAccessToken: world.users.owner.accessToken },
      { family },
    );
    expectKnownError(answer, "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });
});

describe("admin access tokens through our SDK", () => {
  const adminApp = (token: string) =>
    new StackAdminApp({
      baseUrl: ORIGIN,
      projectId: projects.dev.id,
      tokenStore: null,
      projectOwnerSession: async () => token,
      fetch: world.provider.fetch,
      clock: world.provider.clock,
    });

  it("an owner's session reads the admin project; an outsider's is refused with ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    expect((await adminApp(world.users.owner.accessToken).getProject()).id).toBe(projects.dev.id);
    const error = await adminApp(world.users.outsider.accessToken)
      .getProject()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect((error as { code?: string } | null)?.code).toBe("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  });
});
