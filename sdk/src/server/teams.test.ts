import { describe, expect, it } from "vitest";
import type { ServerTeamJson } from "../contract/areas/teams.ts";
import { StackAdminApp } from "../admin/admin-app.ts";
import { manualClock } from "../runtime/clock.ts";
import { fakeFetch, json, knownError, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { TEST_USER_ID } from "../test-support/tokens.ts";
import { serverUserJson } from "../test-support/wire-fixtures.ts";
import { StackServerApp } from "./server-app.ts";

/** Server teams, server user permissions and admin definitions on the wire (sdk-surface.md §7, §8, §9c, §12). */

const T0 = 1_750_000_000_000;
const TEAM_ID = "5a0e2a64-1111-4222-8333-944455556666";
const OTHER_ID = "7d1c2b4a-5d6e-4f70-9a9b-0c1d2e3f4a5b";
const team: ServerTeamJson = {
  id: TEAM_ID,
  display_name: "Ops",
  profile_image_url: null,
  client_metadata: null,
  client_read_only_metadata: null,
  created_at_millis: 1_700_000_000_000,
  server_metadata: { tier: 2 },
};

const options = (ff: ReturnType<typeof fakeFetch>) => ({
  projectId: "internal",
  baseUrl: "http://api.test",
  secretServerKey: "ssk",
  fetch: ff.fetch,
  clock: manualClock(T0),
  sleep: recordingSleep().sleep,
});
function setup(responder: Responder) {
  const ff = fakeFetch(responder);
  return { app: new StackServerApp(options(ff)), calls: ff.calls };
}

const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");
const line = (call: { url: string; method: string }) => {
  const url = new URL(call.url);
  return `${call.method} ${url.pathname.replace("/api/v1", "")}${url.search}`;
};

describe("StackServerApp teams", () => {
  it("creates a team with a creator and gives a ServerTeam with createdAt and serverMetadata", async () => {
    const { app, calls } = setup(router({ "POST /teams": () => json(team, 201) }));
    const created = await app.createTeam({ displayName: "Ops", creatorUserId: TEST_USER_ID });
    expect(bodyOf(calls[0]!)).toEqual({ display_name: "Ops", creator_user_id: TEST_USER_ID });
    expect(calls[0]!.headers["x-stack-access-type"]).toBe("server");
    expect(created).toMatchObject({
      id: TEAM_ID,
      displayName: "Ops",
      serverMetadata: { tier: 2 },
      createdAt: new Date(1_700_000_000_000),
    });
  });

  it("adds and removes members, updates server fields, and lists members as server users with their team profile", async () => {
    const profile = {
      team_id: TEAM_ID,
      user_id: TEST_USER_ID,
      display_name: "Ada",
      profile_image_url: null,
      user: serverUserJson(),
    };
    const { app, calls } = setup(
      router({
        "POST /teams": () => json(team, 201),
        [`POST /team-memberships/${TEAM_ID}/${OTHER_ID}`]: () => json({ team_id: TEAM_ID, user_id: OTHER_ID }, 201),
        [`DELETE /team-memberships/${TEAM_ID}/${OTHER_ID}`]: () => json({ success: true }),
        [`PATCH /teams/${TEAM_ID}`]: () => json(team),
        "GET /team-member-profiles": () => json({ items: [profile], is_paginated: false }),
      }),
    );
    const created = await app.createTeam({ displayName: "Ops" });
    await created.addUser(OTHER_ID);
    await created.removeUser(OTHER_ID);
    await created.update({ serverMetadata: { tier: 3 }, clientReadOnlyMetadata: { r: 1 } });
    expect(calls.slice(1).map(line)).toEqual([
      `POST /team-memberships/${TEAM_ID}/${OTHER_ID}`,
      `DELETE /team-memberships/${TEAM_ID}/${OTHER_ID}`,
      `PATCH /teams/${TEAM_ID}`,
    ]);
    expect(bodyOf(calls[3]!)).toEqual({ client_read_only_metadata: { r: 1 }, server_metadata: { tier: 3 } });
    const [member] = await created.listUsers();
    expect(member).toMatchObject({
      id: TEST_USER_ID,
      serverMetadata: { plan: "pro" },
      teamProfile: { displayName: "Ada", profileImageUrl: null },
    });
  });

  it("gets a team by id (null for TEAM_NOT_FOUND) and lists with the published query names and the next cursor", async () => {
    const { app, calls } = setup(
      router({
        [`GET /teams/${TEAM_ID}`]: () => json(team),
        [`GET /teams/${OTHER_ID}`]: () => knownError("TEAM_NOT_FOUND", 404, { team_id: OTHER_ID }),
        "GET /teams": () => json({ items: [team], is_paginated: true, pagination: { next_cursor: OTHER_ID } }),
      }),
    );
    expect((await app.getTeam(TEAM_ID))?.id).toBe(TEAM_ID);
    expect(await app.getTeam(OTHER_ID)).toBeNull();
    const teams = await app.listTeams({ orderBy: "createdAt", desc: true, limit: 1, query: "op" });
    expect(line(calls.at(-1)!)).toBe("GET /teams?order_by=created_at&desc=true&limit=1&query=op");
    expect(teams.nextCursor).toBe(OTHER_ID);
  });

  it("lists every member's permissions of a team, direct by default as the reference SDK", async () => {
    const item = { id: "team_admin", user_id: TEST_USER_ID, team_id: TEAM_ID };
    const { app, calls } = setup(
      router({ "GET /team-permissions": () => json({ items: [item], is_paginated: false }) }),
    );
    expect(await app.listTeamMemberPermissions(TEAM_ID)).toEqual([
      { userId: TEST_USER_ID, permissionId: "team_admin" },
    ]);
    expect(line(calls[0]!)).toBe(`GET /team-permissions?team_id=${TEAM_ID}&recursive=false`);
    await app.listTeamMemberPermissions(TEAM_ID, { recursive: true });
    expect(line(calls[1]!)).toContain("recursive=true");
  });
});

describe("server users' permissions and teams", () => {
  it("grants and revokes per team and per project, and reads with the user's id", async () => {
    const grant = `/team-permissions/${TEAM_ID}/${TEST_USER_ID}/%24update_team`;
    const { app, calls } = setup(
      router({
        [`GET /users/${TEST_USER_ID}`]: () => json(serverUserJson({ selected_team_id: TEAM_ID, selected_team: team })),
        [`POST ${grant}`]: () => json({ id: "$update_team", user_id: TEST_USER_ID, team_id: TEAM_ID }, 201),
        [`POST /project-permissions/${TEST_USER_ID}/read_docs`]: () =>
          json({ id: "read_docs", user_id: TEST_USER_ID }, 201),
        [`DELETE /project-permissions/${TEST_USER_ID}/read_docs`]: () => json({ success: true }),
        "GET /team-permissions": () =>
          json({ items: [{ id: "$update_team", user_id: TEST_USER_ID, team_id: TEAM_ID }], is_paginated: false }),
      }),
    );
    const user = (await app.getUser(TEST_USER_ID))!;
    expect(user.selectedTeam).toMatchObject({ id: TEAM_ID, serverMetadata: { tier: 2 } });
    await user.grantPermission({ id: TEAM_ID }, "$update_team");
    expect(line(calls[1]!)).toBe(`POST ${grant}`);
    await user.grantPermission("read_docs");
    await user.revokePermission("read_docs");
    expect(calls.slice(2).map(line)).toEqual([
      `POST /project-permissions/${TEST_USER_ID}/read_docs`,
      `DELETE /project-permissions/${TEST_USER_ID}/read_docs`,
    ]);
    expect(await user.hasPermission({ id: TEAM_ID }, "$update_team")).toBe(true);
    expect(line(calls.at(-1)!)).toBe(`GET /team-permissions?team_id=${TEAM_ID}&user_id=${TEST_USER_ID}&recursive=true`);
  });

  it("creates a team for the user as its creator, then selects it on the user", async () => {
    const { app, calls } = setup(
      router({
        [`GET /users/${TEST_USER_ID}`]: () => json(serverUserJson()),
        "POST /teams": () => json(team, 201),
        [`PATCH /users/${TEST_USER_ID}`]: () => json(serverUserJson()),
        "GET /teams": () => json({ items: [team], is_paginated: false }),
      }),
    );
    const user = (await app.getUser(TEST_USER_ID))!;
    await user.createTeam({ displayName: "Ops" });
    expect(bodyOf(calls[1]!)).toEqual({ display_name: "Ops", creator_user_id: TEST_USER_ID });
    expect(bodyOf(calls[2]!)).toEqual({ selected_team_id: TEAM_ID });
    expect((await user.listTeams()).map((t) => t.id)).toEqual([TEAM_ID]);
    expect(line(calls.at(-1)!)).toBe(`GET /teams?user_id=${TEST_USER_ID}`);
  });
});

describe("StackAdminApp permission definitions", () => {
  it("creates with the published body (description, contained ids) and maps listings to containedPermissionIds", async () => {
    const ff = fakeFetch(
      router({
        "POST /team-permission-definitions": () =>
          json({ id: "trace_perm", description: "traced", contained_permission_ids: [] }, 201),
        "GET /project-permission-definitions": () =>
          json({ items: [{ id: "docs", contained_permission_ids: ["read"] }], is_paginated: false }),
        "PATCH /team-permission-definitions/trace_perm": () =>
          json({ id: "trace_perm", contained_permission_ids: ["$read_members"] }),
        "DELETE /team-permission-definitions/trace_perm": () => json({ success: true }),
      }),
    );
    const admin = new StackAdminApp({ ...options(ff), superSecretAdminKey: "sak" });
    expect(await admin.createTeamPermissionDefinition({ id: "trace_perm", description: "traced" })).toEqual({
      id: "trace_perm",
    });
    expect(bodyOf(ff.calls[0]!)).toEqual({ id: "trace_perm", description: "traced" });
    expect(ff.calls[0]!.headers["x-stack-access-type"]).toBe("admin");
    expect(await admin.listProjectPermissionDefinitions()).toEqual([{ id: "docs", containedPermissionIds: ["read"] }]);
    await admin.updateTeamPermissionDefinition("trace_perm", { containedPermissionIds: ["$read_members"] });
    expect(bodyOf(ff.calls[2]!)).toEqual({ contained_permission_ids: ["$read_members"] });
    await admin.deleteTeamPermissionDefinition("trace_perm");
    expect(ff.calls[3]!.method).toBe("DELETE");
  });
});
