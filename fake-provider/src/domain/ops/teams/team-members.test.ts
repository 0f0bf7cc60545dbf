import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as, itemIds, serverCreateTeam, teamWithMember } from "../../../test-support/teams.ts";

/** Memberships and member profiles over HTTP: answers and views (protocol.md §5.4, §6.4). The rules: team-members.seam.test.ts. */

type Json = Record<string, unknown>;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const membership = (teamId: string, userId: string, method: "POST" | "DELETE", headers = server()) =>
  api(provider, `/team-memberships/${teamId}/${userId}`, { method, headers, json: {} });
const directPermissions = async (teamId: string, userId: string) =>
  itemIds(
    await api(provider, `/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=false`, { headers: server() }),
  );

describe("/team-memberships", () => {
  it("adds a member with 201 and the member defaults; twice is TEAM_MEMBERSHIP_ALREADY_EXISTS", async () => {
    const team = await serverCreateTeam(provider);
    const user = await signUp(provider);
    expect(await expectJson(await membership(team.id, user.user_id, "POST"), 201)).toEqual({
      team_id: team.id,
      user_id: user.user_id,
    });
    expect(await directPermissions(team.id, user.user_id)).toEqual(["team_member"]);
    const recursive = await itemIds(
      await api(provider, `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`, { headers: as(user) }),
    );
    expect(recursive).toEqual(["$invite_members", "$read_members", "team_member"]);
    await expectKnownError(await membership(team.id, user.user_id, "POST"), "TEAM_MEMBERSHIP_ALREADY_EXISTS", 409);
  });

  it("refuses an unknown team or user, and a client, with the catalogue's errors", async () => {
    const team = await serverCreateTeam(provider);
    const user = await signUp(provider);
    await expectKnownError(await membership(UNKNOWN, user.user_id, "POST"), "TEAM_NOT_FOUND", 404);
    await expectKnownError(await membership(team.id, UNKNOWN, "POST"), "USER_NOT_FOUND", 404);
    await expectKnownError(await membership(team.id, user.user_id, "POST", as(user)), "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("/team-member-profiles", () => {
  it("lists a team's profiles (client view) to a member with $read_members, falling back to the user's name", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    await api(provider, "/users/me", { method: "PATCH", headers: as(owner), json: { display_name: "Olive" } });
    const body = await expectJson<{ items: Json[] }>(
      await api(provider, `/team-member-profiles?team_id=${team.id}`, { headers: as(member) }),
    );
    expect(body.items).toEqual([
      { team_id: team.id, user_id: owner.user_id, display_name: "Olive", profile_image_url: null },
      { team_id: team.id, user_id: member.user_id, display_name: null, profile_image_url: null },
    ]);
  });

  it("lets a member edit only its own profile; the server edits anyone's and sees the user in its view", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    const patch = (userId: string, headers: ReturnType<typeof server>, json: Json) =>
      api(provider, `/team-member-profiles/${team.id}/${userId}`, { method: "PATCH", headers, json });
    const own = await expectJson<Json>(
      await patch("me", as(member), { display_name: "Mo", profile_image_url: "https://img.example.com/mo.png" }),
    );
    expect(own).toEqual({
      team_id: team.id,
      user_id: member.user_id,
      display_name: "Mo",
      profile_image_url: "https://img.example.com/mo.png",
    });
    const refused = await patch(owner.user_id, as(member), { display_name: "Nope" });
    expect([refused.status, await refused.text()]).toEqual([403, "Cannot update another user's profile"]);
    const byServer = await expectJson<Json>(await patch(owner.user_id, server(), { display_name: "Boss" }));
    expect(byServer).toMatchObject({ display_name: "Boss", user: { id: owner.user_id } });
    const read = await expectJson<Json>(
      await api(provider, `/team-member-profiles/${team.id}/me`, { headers: as(member) }),
    );
    expect(read).toMatchObject({ display_name: "Mo" });
    // The team profile is the member's own: the user's display name is unchanged.
    expect(await expectJson(await api(provider, "/users/me", { headers: as(member) }))).toMatchObject({
      display_name: null,
    });
  });
});
