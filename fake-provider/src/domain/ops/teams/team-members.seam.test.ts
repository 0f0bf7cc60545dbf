import { describe, expect, it } from "vitest";
import type { UserRecord } from "../../store/records.ts";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { revokeTeamPermission } from "./permission-grants.ts";
import {
  addTeamMember,
  getMemberProfile,
  listMemberProfiles,
  removeTeamMember,
  updateMemberProfile,
} from "./team-members.ts";
import { createTeam } from "./teams.ts";
import { deleteUser, updateUser } from "../users/users.ts";

/** Memberships and member profiles: who may add, leave, remove, read and edit (protocol.md §5.4; spec §6 defaults). */

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const grantsOf = (seam: OpSeam, teamId: string, userId: string) =>
  [...seam.tables.teamPermissionGrants.values()]
    .filter((g) => g.teamId === teamId && g.userId === userId)
    .map((g) => g.permissionId);
const current = (seam: OpSeam, user: UserRecord) => seam.tables.users.get(user.id)!;

/** A team a client user created (the creator defaults), a member added by the server (the member defaults, unless `bare`). */
async function teamWithMember(seam: OpSeam, options: { bare?: boolean } = {}) {
  const owner = await seam.addUser({ display_name: "Olive" });
  const member = await seam.addUser();
  const team = await seam.ok(asClient(owner), (ctx) => createTeam(ctx, { display_name: "Rocket" }));
  seam.clock.advance(1);
  await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, member.id));
  if (options.bare) await seam.ok((ctx) => revokeTeamPermission(ctx, team.id, member.id, "team_member"));
  return { owner, member, team };
}

describe("addTeamMember", () => {
  it("adds with the member defaults; twice is TEAM_MEMBERSHIP_ALREADY_EXISTS; an unknown team or user is refused; nothing written then", async () => {
    const seam = opSeam();
    const team = await seam.ok(asServer(), (ctx) => createTeam(ctx, { display_name: "T" }));
    const user = await seam.addUser();
    expect(await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, user.id))).toMatchObject({
      teamId: team.id,
      userId: user.id,
      createdAtMillis: seam.clock.now(),
    });
    expect(grantsOf(seam, team.id, user.id)).toEqual(["team_member"]);
    await seam.refuses(asServer(), (ctx) => addTeamMember(ctx, team.id, user.id), "TEAM_MEMBERSHIP_ALREADY_EXISTS");
    await seam.refuses(asServer(), (ctx) => addTeamMember(ctx, UNKNOWN, user.id), "TEAM_NOT_FOUND");
    await seam.refuses(asServer(), (ctx) => addTeamMember(ctx, team.id, UNKNOWN), "USER_NOT_FOUND");
    // The real order: the user before the team.
    await seam.refuses(asServer(), (ctx) => addTeamMember(ctx, UNKNOWN, UNKNOWN), "USER_NOT_FOUND");
  });

  it("removing: the user, then the membership; the team itself is not looked up (an unknown one is TEAM_MEMBERSHIP_NOT_FOUND)", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await seam.refuses(asServer(), (ctx) => removeTeamMember(ctx, UNKNOWN, UNKNOWN), "USER_NOT_FOUND");
    await seam.refuses(asServer(), (ctx) => removeTeamMember(ctx, UNKNOWN, user.id), "TEAM_MEMBERSHIP_NOT_FOUND");
    await seam.refuses(asClient(user), (ctx) => removeTeamMember(ctx, UNKNOWN, UNKNOWN), "TEAM_MEMBERSHIP_NOT_FOUND");
  });
});

describe("removeTeamMember", () => {
  it("a member may always leave, even holding no permission, which unselects the team; leaving twice is TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const seam = opSeam();
    const { member, team } = await teamWithMember(seam, { bare: true });
    expect(grantsOf(seam, team.id, member.id)).toEqual([]);
    await seam.ok((ctx) => updateUser(ctx, current(seam, member), { selected_team_id: team.id }));
    await seam.ok(asClient(member), (ctx) => removeTeamMember(ctx, team.id, "me"));
    expect(current(seam, member).selectedTeamId).toBeNull();
    const again = await seam.refuses(
      asClient(member),
      (ctx) => removeTeamMember(ctx, team.id, "me"),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    expect(again.details).toEqual({ team_id: team.id, user_id: member.id });
  });

  it("removing someone else needs $remove_members (the creator has it) and takes their grants along", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam);
    const refused = await seam.refuses(
      asClient(member),
      (ctx) => removeTeamMember(ctx, team.id, owner.id),
      "TEAM_PERMISSION_REQUIRED",
    );
    expect(refused.details).toEqual({ team_id: team.id, user_id: member.id, permission_id: "$remove_members" });
    await seam.ok(asClient(owner), (ctx) => removeTeamMember(ctx, team.id, member.id));
    expect(grantsOf(seam, team.id, member.id)).toEqual([]);
    await seam.refuses(asServer(), (ctx) => removeTeamMember(ctx, team.id, member.id), "TEAM_MEMBERSHIP_NOT_FOUND");
    await seam.refuses(asServer(), (ctx) => removeTeamMember(ctx, team.id, UNKNOWN), "USER_NOT_FOUND");
    await seam.refuses(asClient(), (ctx) => removeTeamMember(ctx, team.id, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("a deleted user's memberships and grants go with them", async () => {
    const seam = opSeam();
    const { member, team } = await teamWithMember(seam);
    await seam.ok((ctx) => deleteUser(ctx, current(seam, member)));
    expect(grantsOf(seam, team.id, member.id)).toEqual([]);
    expect([...seam.tables.teamMemberships.values()].map((m) => m.userId)).not.toContain(member.id);
  });
});

describe("selecting a team (updateUser)", () => {
  it("only a team the user belongs to: TEAM_MEMBERSHIP_NOT_FOUND or TEAM_NOT_FOUND otherwise; null unselects", async () => {
    const seam = opSeam();
    const { member, team } = await teamWithMember(seam);
    const outsider = await seam.addUser();
    await seam.ok((ctx) => updateUser(ctx, current(seam, member), { selected_team_id: team.id }));
    expect(current(seam, member).selectedTeamId).toBe(team.id);
    const refused = await seam.refuses(
      (ctx) => updateUser(ctx, current(seam, outsider), { selected_team_id: team.id }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    expect(refused.details).toEqual({ team_id: team.id, user_id: outsider.id });
    await seam.refuses(
      (ctx) => updateUser(ctx, current(seam, outsider), { selected_team_id: UNKNOWN }),
      "TEAM_NOT_FOUND",
    );
    await seam.ok((ctx) => updateUser(ctx, current(seam, member), { selected_team_id: null }));
    expect(current(seam, member).selectedTeamId).toBeNull();
  });
});

describe("member profiles", () => {
  it("list: with $read_members every member, falling back to the user's own name; without it only oneself; outsiders refused", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam);
    const profiles = await seam.ok(asClient(member), (ctx) => listMemberProfiles(ctx, { teamId: team.id }));
    expect(profiles.map((p) => [p.user.id, p.displayName])).toEqual([
      [owner.id, "Olive"],
      [member.id, null],
    ]);
    await seam.ok((ctx) => revokeTeamPermission(ctx, team.id, member.id, "team_member"));
    const refused = await seam.refuses(
      asClient(member),
      (ctx) => listMemberProfiles(ctx, { teamId: team.id }),
      "TEAM_PERMISSION_REQUIRED",
    );
    expect(refused.details).toMatchObject({ permission_id: "$read_members" });
    expect(
      (await seam.ok(asClient(member), (ctx) => listMemberProfiles(ctx, { teamId: team.id, userIdOrMe: "me" }))).map(
        (p) => p.user.id,
      ),
    ).toEqual([member.id]);
    await seam.refuses(
      asClient(await seam.addUser()),
      (ctx) => listMemberProfiles(ctx, { teamId: team.id }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
  });

  it("list: a server may list a user's profiles across teams, in joining order; a client must name the team (plain 400)", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam);
    seam.clock.advance(1_000);
    const second = await seam.ok(asClient(member), (ctx) => createTeam(ctx, { display_name: "Second" }));
    expect(
      (await seam.ok(asServer(), (ctx) => listMemberProfiles(ctx, { userIdOrMe: member.id }))).map(
        (p) => p.membership.teamId,
      ),
    ).toEqual([team.id, second.id]);
    for (const q of [{}, { userIdOrMe: owner.id }]) {
      expect((await seam.refuses(asClient(member), (ctx) => listMemberProfiles(ctx, q), 400)).message).toBe(
        "team_id is required for access type client",
      );
    }
  });

  it("read one: others' need $read_members; a missing membership or team is TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam, { bare: true });
    await seam.refuses(asClient(member), (ctx) => getMemberProfile(ctx, team.id, owner.id), "TEAM_PERMISSION_REQUIRED");
    expect((await seam.ok(asClient(owner), (ctx) => getMemberProfile(ctx, team.id, member.id))).user.id).toBe(
      member.id,
    );
    await seam.refuses(asServer(), (ctx) => getMemberProfile(ctx, team.id, UNKNOWN), "USER_NOT_FOUND");
    // The team itself is not looked up, as in the real handler: an unknown one is a missing membership.
    await seam.refuses(asClient(owner), (ctx) => getMemberProfile(ctx, UNKNOWN, "me"), "TEAM_MEMBERSHIP_NOT_FOUND");
  });

  it("edit: a member edits only its own team profile (plain 403 for another's), a server anyone's; the user's own name stays", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam);
    const own = await seam.ok(asClient(member), (ctx) =>
      updateMemberProfile(ctx, team.id, "me", { display_name: "Mo" }),
    );
    expect(own.displayName).toBe("Mo");
    expect(
      (
        await seam.refuses(
          asClient(member),
          (ctx) => updateMemberProfile(ctx, team.id, owner.id, { display_name: "Nope" }),
          403,
        )
      ).message,
    ).toBe("Cannot update another user's profile");
    expect(
      (await seam.ok(asServer(), (ctx) => updateMemberProfile(ctx, team.id, owner.id, { display_name: "Boss" })))
        .displayName,
    ).toBe("Boss");
    expect([current(seam, member).displayName, current(seam, owner).displayName]).toEqual([null, "Olive"]);
  });
});
