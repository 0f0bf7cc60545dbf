import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import type { UserRecord } from "../../store/records.ts";
import { asClient, asServer, devSeedWith, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { addTeamMember } from "./team-members.ts";
import { createTeam, deleteTeam, getTeam, listTeams, updateTeam } from "./teams.ts";
import { updateUser } from "../users/users.ts";
import { sendInvitation } from "./invitations.ts";

/** Teams: who may create, read, update, delete and list them, and what deleting takes along (spec §4, §6; protocol.md §5.3). */

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const grantsOf = (seam: OpSeam, teamId: string, userId: string) =>
  [...seam.tables.teamPermissionGrants.values()]
    .filter((g) => g.teamId === teamId && g.userId === userId)
    .map((g) => g.permissionId);

/** A team created by a client user (who gets the creator defaults), with a plain member added by the server. */
async function teamWithMember(seam: OpSeam) {
  const owner = await seam.addUser({ primary_email: "owner@example.com" });
  const member = await seam.addUser({ primary_email: "member@example.com" });
  const team = await seam.ok(asClient(owner), (ctx) => createTeam(ctx, { display_name: "Rocket" }));
  seam.clock.advance(1);
  await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, member.id));
  return { owner, member, team };
}

describe("createTeam", () => {
  it("a client's team has the caller as member with the creator defaults, and leaves the selection as it was", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const team = await seam.ok(asClient(user), (ctx) =>
      createTeam(ctx, { display_name: "Rocket", client_metadata: { plan: "free" } }),
    );
    expect(team).toMatchObject({
      displayName: "Rocket",
      clientMetadata: { plan: "free" },
      createdAtMillis: seam.clock.now(),
      projectId: devProjectSeed.id,
    });
    expect(grantsOf(seam, team.id, user.id)).toEqual(["team_admin"]);
    expect(seam.tables.users.get(user.id)?.selectedTeamId).toBe(user.selectedTeamId);
  });

  it("a server's team without a creator has no members; an unknown creator is USER_NOT_FOUND and makes no team", async () => {
    const seam = opSeam();
    const team = await seam.ok(asServer(), (ctx) =>
      createTeam(ctx, { display_name: "Ops", server_metadata: { tier: 2 } }),
    );
    expect([...seam.tables.teamMemberships.values()].filter((m) => m.teamId === team.id)).toEqual([]);
    await seam.refuses(
      asServer(),
      (ctx) => createTeam(ctx, { display_name: "Ghost", creator_user_id: UNKNOWN }),
      "USER_NOT_FOUND",
    );
  });

  it("refuses a client without a user, naming another creator (plain 403), or a web image (plain 400)", async () => {
    const seam = opSeam();
    const [user, other] = [await seam.addUser(), await seam.addUser()];
    await seam.refuses(asClient(), (ctx) => createTeam(ctx, { display_name: "T" }), "USER_AUTHENTICATION_REQUIRED");
    const someoneElse = await seam.refuses(
      asClient(user),
      (ctx) => createTeam(ctx, { display_name: "T", creator_user_id: other.id }),
      403,
    );
    expect(someoneElse.message).toBe(
      "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
    );
    expect(
      (
        await seam.refuses(
          asClient(user),
          (ctx) => createTeam(ctx, { display_name: "T", profile_image_url: "https://img.example.com/t.png" }),
          400,
        )
      ).message,
    ).toBe("Invalid profile image URL");
    expect(
      (await seam.run(asClient(user), (ctx) => createTeam(ctx, { display_name: "T", creator_user_id: "me" }))).ok,
    ).toBe(true);
  });

  it("with client team creation off, refuses a client with the real handler's plain 403", async () => {
    const seam = opSeam({ seed: devSeedWith({ client_team_creation_enabled: false }) });
    const user = await seam.addUser();
    const error = await seam.refuses(asClient(user), (ctx) => createTeam(ctx, { display_name: "No" }), 403);
    expect(error.message).toBe("Client team creation is disabled for this project");
    expect(
      (await seam.run(asServer(), (ctx) => createTeam(ctx, { display_name: "Server may", creator_user_id: user.id })))
        .ok,
    ).toBe(true);
  });
});

describe("getTeam, updateTeam", () => {
  it("a member reads the team; a non-member is TEAM_MEMBERSHIP_NOT_FOUND, an unknown id TEAM_NOT_FOUND", async () => {
    const seam = opSeam();
    const { member, team } = await teamWithMember(seam);
    expect((await seam.ok(asClient(member), (ctx) => getTeam(ctx, team.id))).id).toBe(team.id);
    const outsider = await seam.addUser();
    expect(
      (await seam.refuses(asClient(outsider), (ctx) => getTeam(ctx, team.id), "TEAM_MEMBERSHIP_NOT_FOUND")).details,
    ).toEqual({ team_id: team.id, user_id: outsider.id });
    expect((await seam.refuses(asServer(), (ctx) => getTeam(ctx, UNKNOWN), "TEAM_NOT_FOUND")).details).toEqual({
      team_id: UNKNOWN,
    });
  });

  it("checks a client's membership before the team, as the real checks: an unknown team or a non-member updating is TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const seam = opSeam();
    const { member, team } = await teamWithMember(seam);
    const outsider = await seam.addUser();
    await seam.refuses(asClient(member), (ctx) => getTeam(ctx, UNKNOWN), "TEAM_MEMBERSHIP_NOT_FOUND");
    await seam.refuses(
      asClient(member),
      (ctx) => updateTeam(ctx, UNKNOWN, { display_name: "X" }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    await seam.refuses(
      asClient(outsider),
      (ctx) => updateTeam(ctx, team.id, { display_name: "X" }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    await seam.refuses(asClient(outsider), (ctx) => deleteTeam(ctx, team.id), "TEAM_MEMBERSHIP_NOT_FOUND");
  });

  it("a client updates with $update_team only (the creator has it); a server updates any field", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam);
    const error = await seam.refuses(
      asClient(member),
      (ctx) => updateTeam(ctx, team.id, { display_name: "Hijacked" }),
      "TEAM_PERMISSION_REQUIRED",
    );
    expect(error.details).toEqual({ team_id: team.id, user_id: member.id, permission_id: "$update_team" });
    expect(
      (await seam.ok(asClient(owner), (ctx) => updateTeam(ctx, team.id, { display_name: "Renamed" }))).displayName,
    ).toBe("Renamed");
    expect(await seam.ok(asServer(), (ctx) => updateTeam(ctx, team.id, { server_metadata: { s: 1 } }))).toMatchObject({
      displayName: "Renamed",
      serverMetadata: { s: 1 },
    });
  });
});

describe("deleteTeam", () => {
  it("needs $delete_team from a client; takes memberships, grants, members' selection and pending invitations along", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam);
    const current = (u: UserRecord) => seam.tables.users.get(u.id)!;
    await seam.ok((ctx) => updateUser(ctx, current(member), { selected_team_id: team.id }));
    const verifiedOwner = await seam.ok((ctx) => updateUser(ctx, current(owner), { primary_email_verified: true }));
    await seam.ok(asClient(verifiedOwner), (ctx) =>
      sendInvitation(ctx, {
        email: "invitee@example.com",
        team_id: team.id,
        callback_url: "http://localhost:3000/handler/team-invitation",
      }),
    );
    await seam.refuses(asClient(member), (ctx) => deleteTeam(ctx, team.id), "TEAM_PERMISSION_REQUIRED");
    await seam.ok(asClient(owner), (ctx) => deleteTeam(ctx, team.id));
    expect(seam.tables.teams.has(team.id)).toBe(false);
    expect([current(member).selectedTeamId, current(owner).selectedTeamId]).toEqual([null, null]);
    expect([...seam.tables.teamMemberships.values()].filter((m) => m.teamId === team.id)).toEqual([]);
    expect([...seam.tables.teamPermissionGrants.values()].filter((g) => g.teamId === team.id)).toEqual([]);
    expect([...seam.tables.verificationCodes.values()].filter((c) => c.purpose === "team_invitation")).toEqual([]);
  });
});

describe("listTeams", () => {
  it("a client lists only its own teams, and only by naming itself (plain 403 otherwise)", async () => {
    const seam = opSeam();
    const { owner, member, team } = await teamWithMember(seam);
    await seam.ok(asClient(await seam.addUser()), (ctx) => createTeam(ctx, { display_name: "Someone else's" }));
    const ids = async (user: UserRecord, userId: string) =>
      (await seam.ok(asClient(user), (ctx) => listTeams(ctx, { user_id: userId }))).items.map((t) => t.id);
    expect(await ids(member, "me")).toEqual([team.id]);
    expect(await ids(owner, owner.id)).toEqual([team.id]);
    for (const q of [{}, { user_id: member.id }]) {
      const refused = await seam.refuses(asClient(owner), (ctx) => listTeams(ctx, q), 403);
      expect(refused.message).toBe(
        'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
      );
    }
    await seam.refuses(asClient(), (ctx) => listTeams(ctx, { user_id: "me" }), "CANNOT_GET_OWN_USER_WITHOUT_USER");
  });

  it("a server pages through every team exactly once, oldest first or newest first, for any page size; filters by member and text", async () => {
    const seam = opSeam();
    const created: string[] = [];
    for (const name of ["Alpha", "Beta", "Gamma", "Delta"]) {
      created.push((await seam.ok(asServer(), (ctx) => createTeam(ctx, { display_name: name }))).id);
      seam.clock.advance(1_000);
    }
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), fc.boolean(), async (limit, desc) => {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages < 10; pages++) {
          const page = await seam.ok(asServer(), (ctx) =>
            listTeams(ctx, { limit, desc, ...(cursor ? { cursor } : {}) }),
          );
          expect(page.paginated).toBe(true);
          seen.push(...page.items.map((t) => t.id));
          if (page.nextCursor === null) break;
          cursor = page.nextCursor;
        }
        expect(seen).toEqual(desc ? [...created].reverse() : created);
      }),
      { numRuns: 15 },
    );
    const user = await seam.addUser();
    await seam.ok(asServer(), (ctx) => addTeamMember(ctx, created[1]!, user.id));
    expect((await seam.ok(asServer(), (ctx) => listTeams(ctx, { user_id: user.id }))).items.map((t) => t.id)).toEqual([
      created[1],
    ]);
    expect((await seam.ok(asServer(), (ctx) => listTeams(ctx, { query: "AMM" }))).items.map((t) => t.id)).toEqual([
      created[2],
    ]);
  });
});
