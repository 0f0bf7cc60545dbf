import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as, itemIds, teamWithMember } from "../../../test-support/teams.ts";

/** Grants per team member and per project user over HTTP: answers, access, listings (spec §6, §9; protocol.md §5.4). The rules: permission-grants.seam.test.ts. */

type Json = Record<string, unknown>;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const define = async (scope: "team" | "project", id: string, contained: string[] = []) =>
  expectJson(
    await api(provider, `/${scope}-permission-definitions`, {
      headers: admin(),
      json: { id, contained_permission_ids: contained },
    }),
    201,
  );
const teamGrant = (
  teamId: string,
  userId: string,
  permissionId: string,
  method: "POST" | "DELETE" = "POST",
  headers = server(),
) =>
  api(provider, `/team-permissions/${teamId}/${userId}/${encodeURIComponent(permissionId)}`, {
    method,
    headers,
    json: {},
  });
const projectGrant = (userId: string, permissionId: string, method: "POST" | "DELETE" = "POST") =>
  api(provider, `/project-permissions/${userId}/${permissionId}`, { method, headers: server(), json: {} });

describe("team permission grants", () => {
  it("grants with 201 and the granted permission; lists it directly, and recursively with what it contains", async () => {
    const { member, team } = await teamWithMember(provider);
    await define("team", "reader", ["$read_members"]);
    await define("team", "editor", ["reader", "$update_team"]);
    expect(await expectJson(await teamGrant(team.id, member.user_id, "editor"), 201)).toEqual({
      id: "editor",
      user_id: member.user_id,
      team_id: team.id,
    });
    const base = `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`;
    expect(
      await itemIds(await api(provider, `/team-permissions?team_id=${team.id}&user_id=me`, { headers: as(member) })),
    ).toEqual(["editor", "team_member"]);
    const all = await expectJson<{ items: Json[] }>(await api(provider, base, { headers: as(member) }));
    expect(all.items.map((p) => p.id)).toEqual([
      "$invite_members",
      "$read_members",
      "$update_team",
      "editor",
      "reader",
      "team_member",
    ]);
    expect(all.items[0]).toEqual({ id: "$invite_members", user_id: member.user_id, team_id: team.id });
    expect(await itemIds(await api(provider, `${base}&permission_id=reader`, { headers: as(member) }))).toEqual([
      "reader",
    ]);
    // The grant gives the member the write it lacked.
    const renamed = await api(provider, `/teams/${team.id}`, {
      method: "PATCH",
      headers: as(member),
      json: { display_name: "Now allowed" },
    });
    expect(await expectJson(renamed)).toMatchObject({ display_name: "Now allowed" });
  });

  it("refuses grants with the catalogue's errors: scope, definition, team, user, membership, access", async () => {
    const { member, team } = await teamWithMember(provider);
    await define("project", "proj");
    const outsider = await signUp(provider);
    const wrong = await expectKnownError(
      await teamGrant(team.id, member.user_id, "proj"),
      "WRONG_PERMISSION_SCOPE",
      404,
    );
    expect(wrong.details).toEqual({ permission_id: "proj", expected_scope: "team", actual_scope: "project" });
    await expectKnownError(await teamGrant(team.id, member.user_id, "ghost"), "PERMISSION_NOT_FOUND", 404);
    // As the real handler: the user, then the membership; the team is not looked up.
    await expectKnownError(await teamGrant(UNKNOWN, member.user_id, "team_member"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    await expectKnownError(await teamGrant(team.id, UNKNOWN, "team_member"), "USER_NOT_FOUND", 404);
    const notMember = await expectKnownError(
      await teamGrant(team.id, outsider.user_id, "$read_members"),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      404,
    );
    expect(notMember.details).toEqual({ team_id: team.id, user_id: outsider.user_id });
    await expectKnownError(
      await teamGrant(team.id, member.user_id, "$update_team", "POST", as(member)),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
    await expectKnownError(await teamGrant(team.id, member.user_id, "BAD ID"), "SCHEMA_ERROR", 400);
  });

  it("lets a client list only its own permissions; a server lists a whole team", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    // Upstream's plain 403 for a client naming another user, or no user.
    for (const query of [`team_id=${team.id}&user_id=${owner.user_id}`, `team_id=${team.id}`]) {
      const refused = await api(provider, `/team-permissions?${query}`, { headers: as(member) });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain("Client can only list permissions for their own user.");
    }
    await expectKnownError(
      await api(provider, `/team-permissions?team_id=${team.id}&user_id=me`, { headers: client() }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
    // An unknown team has no grants: the real listing does not look the team up.
    expect(
      await expectJson(await api(provider, `/team-permissions?team_id=${UNKNOWN}&user_id=me`, { headers: as(member) })),
    ).toEqual({ items: [], is_paginated: false });
    const whole = await expectJson<{ items: Json[] }>(
      await api(provider, `/team-permissions?team_id=${team.id}&recursive=false`, { headers: server() }),
    );
    expect(whole.items.map((p) => [p.user_id, p.id]).sort()).toEqual(
      [
        [member.user_id, "team_member"],
        [owner.user_id, "team_admin"],
      ].sort(),
    );
  });
});

describe("project permission grants", () => {
  it("grants, lists (directly by default, recursively on request) and revokes project permissions", async () => {
    const user = await signUp(provider);
    await define("project", "read_docs");
    await define("project", "write_docs", ["read_docs"]);
    expect(await expectJson(await projectGrant(user.user_id, "write_docs"), 201)).toEqual({
      id: "write_docs",
      user_id: user.user_id,
    });
    expect(
      await itemIds(await api(provider, "/project-permissions?user_id=me&recursive=true", { headers: as(user) })),
    ).toEqual(["read_docs", "write_docs"]);
    expect(await itemIds(await api(provider, "/project-permissions?user_id=me", { headers: as(user) }))).toEqual([
      "write_docs",
    ]);
    await expectJson(await projectGrant(user.user_id, "write_docs", "DELETE"));
    expect(await itemIds(await api(provider, "/project-permissions?user_id=me", { headers: as(user) }))).toEqual([]);
  });

  it("refuses team-scope ids, unknown ids, unknown users and a missing grant with catalogue errors", async () => {
    const user = await signUp(provider);
    await define("project", "proj");
    await expectKnownError(await projectGrant(user.user_id, "team_member"), "WRONG_PERMISSION_SCOPE", 404);
    await expectKnownError(await projectGrant(user.user_id, "ghost"), "PERMISSION_NOT_FOUND", 404);
    await expectKnownError(await projectGrant(UNKNOWN, "proj"), "USER_NOT_FOUND", 404);
    await expectKnownError(await projectGrant(user.user_id, "proj", "DELETE"), "PERMISSION_NOT_FOUND", 404);
    const everyone = await api(provider, "/project-permissions", { headers: as(user) });
    expect(everyone.status).toBe(403);
    expect(await everyone.text()).toBe(
      'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
    );
  });
});
