import { decodeJwt } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  INTERNAL,
  api,
  expectJson,
  expectKnownError,
  expireAccessTokens,
  families,
  newProvider,
  server,
  signUp,
  type Fields,
  type SignedUp,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * Admin access tokens (protocol.md §2.3 step 7, §8): an access token of an `internal` user, sent as
 * x-*-admin-access-token, authenticates whatever access type was requested on a project owned by one of the user's
 * teams (the dev project's owner team is owner_team_id of its fixture).
 */

const OWNER_TEAM_ID = DEV.owner_team_id!;

async function joinOwnerTeam(provider: TestProvider, userId: string): Promise<void> {
  await provider.store.transact((t) =>
    t.teamMemberships.set(`${OWNER_TEAM_ID}:${userId}`, {
      projectId: INTERNAL.id,
      teamId: OWNER_TEAM_ID,
      userId,
      createdAtMillis: provider.clock.now(),
    }),
  );
}

describe.each(families)("admin access tokens with x-%s-* headers", (family) => {
  let provider: TestProvider;
  let dashboardUser: SignedUp;
  const asAdmin = (token: string, extra: Fields = {}, path = "/internal/projects/current") =>
    api(provider, path, {
      family,
      headers: { accessType: "admin", projectId: DEV.id, adminAccessToken: token, ...extra },
    });

  beforeEach(async () => {
    provider = newProvider();
    dashboardUser = await signUp(provider, { project: INTERNAL });
  });
  afterEach(() => {
    expect(provider.unexpected).toEqual([]);
  });

  it("seeds the dev project's owner team in the internal project", () => {
    expect(provider.store.read.projects.get(DEV.id)?.ownerTeamId).toBe(OWNER_TEAM_ID);
    expect(provider.store.read.teams.get(OWNER_TEAM_ID)?.projectId).toBe(INTERNAL.id);
  });

  it("rejects the token of an internal user outside the owner team with ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const body = await expectKnownError(
      await asAdmin(dashboardUser.access_token),
      "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN",
      401,
    );
    expect(body.details).toBeUndefined();
  });

  it("grants admin access once the user is a member of the owner team", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    const project = await expectJson<{ id: string; owner_team_id: string }>(await asAdmin(dashboardUser.access_token));
    expect(project).toMatchObject({ id: DEV.id, owner_team_id: OWNER_TEAM_ID });
  });

  it("grants whichever access type was requested, without any project key", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    const token = dashboardUser.access_token;
    for (const accessType of ["server", "client"]) {
      const response = await api(provider, "/", {
        family,
        headers: { accessType, projectId: DEV.id, adminAccessToken: token },
      });
      expect(await response.text()).toContain(`Authentication: ${accessType[0]!.toUpperCase()}${accessType.slice(1)}`);
    }
    await expectJson(await asAdmin(token, { accessType: "server" }, "/users"));
  });

  it("checks the admin access token instead of the project keys", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    await expectJson(await asAdmin(dashboardUser.access_token, { superSecretAdminKey: "sak_wrong" }));
  });

  it("rejects an expired admin token with ADMIN_ACCESS_TOKEN_EXPIRED", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    expireAccessTokens(provider);
    const body = await expectKnownError(await asAdmin(dashboardUser.access_token), "ADMIN_ACCESS_TOKEN_EXPIRED", 401);
    expect(body.details).toEqual({ expired_at_millis: (decodeJwt(dashboardUser.access_token).exp ?? 0) * 1000 });
  });

  it("rejects a garbage admin token with UNPARSABLE_ADMIN_ACCESS_TOKEN", async () => {
    await expectKnownError(await asAdmin("garbage"), "UNPARSABLE_ADMIN_ACCESS_TOKEN", 401);
  });

  it("rejects a tampered admin token with UNPARSABLE_ADMIN_ACCESS_TOKEN", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    const [header, payload, signature] = dashboardUser.access_token.split(".") as [string, string, string];
    const flipped = (signature[0] === "A" ? "B" : "A") + signature.slice(1);
    await expectKnownError(await asAdmin(`${header}.${payload}.${flipped}`), "UNPARSABLE_ADMIN_ACCESS_TOKEN", 401);
  });

  it("rejects a dev-project user's token used as admin token with ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", async () => {
    const devUser = await signUp(provider);
    await joinOwnerTeam(provider, devUser.user_id);
    await expectKnownError(await asAdmin(devUser.access_token), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401);
  });

  it("answers 401 plain text when the admin token's user was deleted", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    const deleted = await api(provider, `/users/${dashboardUser.user_id}`, {
      method: "DELETE",
      headers: server({}, INTERNAL),
    });
    await expectJson(deleted);
    const response = await asAdmin(dashboardUser.access_token);
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    expect(response.headers.get("x-hexclave-known-error")).toBeNull();
    expect(await response.text()).toBe(
      "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.",
    );
  });

  it("loses admin access when the membership is removed", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    await expectJson(await asAdmin(dashboardUser.access_token));
    await provider.store.transact((t) => t.teamMemberships.delete(`${OWNER_TEAM_ID}:${dashboardUser.user_id}`));
    await expectKnownError(await asAdmin(dashboardUser.access_token), "ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401);
  });

  it("looks up the project (CURRENT_PROJECT_NOT_FOUND) before checking the admin token", async () => {
    const response = await api(provider, "/", {
      family,
      headers: { accessType: "admin", projectId: "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3", adminAccessToken: "garbage" },
    });
    await expectKnownError(response, "CURRENT_PROJECT_NOT_FOUND", 400);
  });

  it("decodes the user's access token (step 5) before the admin token (step 7)", async () => {
    await joinOwnerTeam(provider, dashboardUser.user_id);
    await expectKnownError(
      await asAdmin(dashboardUser.access_token, { accessToken: "garbage" }),
      "UNPARSABLE_ACCESS_TOKEN",
      401,
    );
  });
});
