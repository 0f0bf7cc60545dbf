import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, client, expectJson, expectKnownError, newProvider, server, signUp, type TestProvider } from "../../test-support/api.ts";
import { as, clientCreateTeam, itemIds, patchDevConfig, serverCreateTeam, teamWithMember } from "../../test-support/teams.ts";

/** Memberships and member profiles (protocol.md §5.4, §6.4; spec §6 defaults). */

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
  itemIds(await api(provider, `/team-permissions?team_id=${teamId}&user_id=${userId}&recursive=false`, { headers: server() }));

describe("/team-memberships", () => {
  it("adds a member with 201 and the member defaults; twice is TEAM_MEMBERSHIP_ALREADY_EXISTS", async () => {
    const team = await serverCreateTeam(provider);
    const user = await signUp(provider);
    expect(await expectJson(await membership(team.id, user.user_id, "POST"), 201)).toEqual({ team_id: team.id, user_id: user.user_id });
    expect(await directPermissions(team.id, user.user_id)).toEqual(["team_member"]);
    const recursive = await itemIds(await api(provider, `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`, { headers: as(user) }));
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

  it("lets a member always leave (even with no permission at all), unselecting the team; leaving twice is TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    await patchDevConfig(provider, { team_member_default_permissions: [] });
    const { member, team } = await teamWithMember(provider);
    expect(await directPermissions(team.id, member.user_id)).toEqual([]);
    await api(provider, "/users/me", { method: "PATCH", headers: as(member), json: { selected_team_id: team.id } });
    expect(await expectJson(await membership(team.id, "me", "DELETE", as(member)))).toEqual({ success: true });
    expect(await expectJson(await api(provider, "/users/me", { headers: as(member) }))).toMatchObject({ selected_team_id: null });
    expect(await itemIds(await api(provider, "/teams?user_id=me", { headers: as(member) }))).toEqual([]);
    const again = await expectKnownError(await membership(team.id, "me", "DELETE", as(member)), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(again.details).toEqual({ team_id: team.id, user_id: member.user_id });
  });

  it("needs $remove_members to remove someone else; the creator has it, and the removed member's grants go", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    const refused = await expectKnownError(await membership(team.id, owner.user_id, "DELETE", as(member)), "TEAM_PERMISSION_REQUIRED", 401);
    expect(refused.details).toEqual({ team_id: team.id, user_id: member.user_id, permission_id: "$remove_members" });
    await expectJson(await membership(team.id, member.user_id, "DELETE", as(owner)));
    expect(await directPermissions(team.id, member.user_id)).toEqual([]);
    await expectKnownError(await membership(team.id, member.user_id, "DELETE"), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    await expectKnownError(await membership(team.id, UNKNOWN, "DELETE"), "USER_NOT_FOUND", 404);
  });

  it("lets a user select only a team it belongs to (TEAM_MEMBERSHIP_NOT_FOUND, TEAM_NOT_FOUND otherwise)", async () => {
    const { member, team } = await teamWithMember(provider);
    const outsider = await signUp(provider);
    const select = (user: { access_token: string }, teamId: string | null) =>
      api(provider, "/users/me", { method: "PATCH", headers: as(user), json: { selected_team_id: teamId } });
    expect(await expectJson(await select(member, team.id))).toMatchObject({ selected_team_id: team.id, selected_team: { id: team.id } });
    const refused = await expectKnownError(await select(outsider, team.id), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    expect(refused.details).toEqual({ team_id: team.id, user_id: outsider.user_id });
    await expectKnownError(await select(outsider, UNKNOWN), "TEAM_NOT_FOUND", 404);
    expect(await expectJson(await select(member, null))).toMatchObject({ selected_team_id: null });
  });

  it("makes `me` without a user CANNOT_GET_OWN_USER_WITHOUT_USER", async () => {
    const team = await serverCreateTeam(provider);
    await expectKnownError(await membership(team.id, "me", "DELETE", client()), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("drops a deleted user's memberships and grants", async () => {
    const { member, team } = await teamWithMember(provider);
    await expectJson(await api(provider, `/users/${member.user_id}`, { method: "DELETE", headers: server() }));
    expect(await itemIds(await api(provider, `/team-permissions?team_id=${team.id}`, { headers: server() }))).not.toContain("team_member");
    expect([...provider.store.read.teamMemberships.values()].map((m) => m.userId)).not.toContain(member.user_id);
  });
});

describe("/team-member-profiles", () => {
  it("lists a team's profiles (client view) to a member with $read_members, falling back to the user's name", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    await api(provider, "/users/me", { method: "PATCH", headers: as(owner), json: { display_name: "Olive" } });
    const body = await expectJson<{ items: Json[] }>(await api(provider, `/team-member-profiles?team_id=${team.id}`, { headers: as(member) }));
    expect(body.items).toEqual([
      { team_id: team.id, user_id: owner.user_id, display_name: "Olive", profile_image_url: null },
      { team_id: team.id, user_id: member.user_id, display_name: null, profile_image_url: null },
    ]);
  });

  it("without $read_members a member sees only itself; a non-member is TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    await patchDevConfig(provider, { team_member_default_permissions: [] });
    const { member, team } = await teamWithMember(provider);
    const all = await api(provider, `/team-member-profiles?team_id=${team.id}`, { headers: as(member) });
    expect((await expectKnownError(all, "TEAM_PERMISSION_REQUIRED", 401)).details).toMatchObject({ permission_id: "$read_members" });
    const own = await expectJson<{ items: Json[] }>(await api(provider, `/team-member-profiles?team_id=${team.id}&user_id=me`, { headers: as(member) }));
    expect(own.items.map((p) => p.user_id)).toEqual([member.user_id]);
    const outsider = await signUp(provider);
    await expectKnownError(await api(provider, `/team-member-profiles?team_id=${team.id}`, { headers: as(outsider) }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
  });

  it("lists a user's profiles across teams for a server; a client must name the team (upstream's plain 400)", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    provider.clock.advance(1_000);
    const second = await clientCreateTeam(provider, member, { display_name: "Second" });
    const body = await expectJson<{ items: Json[] }>(await api(provider, `/team-member-profiles?user_id=${member.user_id}`, { headers: server() }));
    expect(body.items.map((p) => p.team_id)).toEqual([team.id, second.id]);
    for (const query of ["", `?user_id=${owner.user_id}`]) {
      const refused = await api(provider, `/team-member-profiles${query}`, { headers: as(member) });
      expect([refused.status, await refused.text()]).toEqual([400, "team_id is required for access type client"]);
    }
  });

  it("lets a member edit only its own profile; the server edits anyone's and sees the user in its view", async () => {
    const { owner, member, team } = await teamWithMember(provider);
    const patch = (userId: string, headers: ReturnType<typeof server>, json: Json) =>
      api(provider, `/team-member-profiles/${team.id}/${userId}`, { method: "PATCH", headers, json });
    const own = await expectJson<Json>(await patch("me", as(member), { display_name: "Mo", profile_image_url: "https://img.example.com/mo.png" }));
    expect(own).toEqual({ team_id: team.id, user_id: member.user_id, display_name: "Mo", profile_image_url: "https://img.example.com/mo.png" });
    const refused = await patch(owner.user_id, as(member), { display_name: "Nope" });
    expect([refused.status, await refused.text()]).toEqual([403, "Cannot update another user's profile"]);
    const byServer = await expectJson<Json>(await patch(owner.user_id, server(), { display_name: "Boss" }));
    expect(byServer).toMatchObject({ display_name: "Boss", user: { id: owner.user_id } });
    const read = await expectJson<Json>(await api(provider, `/team-member-profiles/${team.id}/me`, { headers: as(member) }));
    expect(read).toMatchObject({ display_name: "Mo" });
    // The team profile is the member's own: the user's display name is unchanged.
    expect(await expectJson(await api(provider, "/users/me", { headers: as(member) }))).toMatchObject({ display_name: null });
  });

  it("reads one profile: others' need $read_members; a missing membership is TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    await patchDevConfig(provider, { team_member_default_permissions: [] });
    const { owner, member, team } = await teamWithMember(provider);
    await expectKnownError(await api(provider, `/team-member-profiles/${team.id}/${owner.user_id}`, { headers: as(member) }), "TEAM_PERMISSION_REQUIRED", 401);
    expect(await expectJson(await api(provider, `/team-member-profiles/${team.id}/${member.user_id}`, { headers: as(owner) }))).toMatchObject({ user_id: member.user_id });
    const stranger = await signUp(provider);
    await expectKnownError(await api(provider, `/team-member-profiles/${team.id}/${stranger.user_id}`, { headers: server() }), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
    await expectKnownError(await api(provider, `/team-member-profiles/${UNKNOWN}/me`, { headers: as(owner) }), "TEAM_NOT_FOUND", 404);
  });
});
