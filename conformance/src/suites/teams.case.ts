import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import {
  adminApp,
  expectKnownError,
  itIf,
  needs,
  serverApp,
  signedUpClient,
  uniqueEmail,
  uniqueTag,
} from "./support.ts";
import { ownProjectNeed, projectOfItsOwn } from "./own-project.ts";
import { expectPlainError } from "./admin-support.ts";
import { hasOutbox, INVITE_CALLBACK, invitationEmail, NO_OUTBOX_REASON, verifiedClient } from "./team-support.ts";

/**
 * Teams, memberships, member profiles and invitations through our SDK (spec §3, §4 "Creating a team" and "Verification
 * codes", §6; protocol.md §5.3–5.5; sdk-surface.md §9b, §12).
 */

/** A team made by a signed-up client (the creator) with a second signed-up member added by the server. */
async function teamWithMember(target: Target) {
  const owner = await signedUpClient(target);
  const member = await signedUpClient(target);
  const team = await owner.user.createTeam({ displayName: uniqueTag("team") });
  const serverTeam = (await serverApp(target).getTeam(team.id))!;
  await serverTeam.addUser(member.userId);
  return { owner, member, team, serverTeam };
}

export function teamCases(getTarget: () => Target): void {
  const outbox: readonly [boolean, string] = [hasOutbox(getTarget()), NO_OUTBOX_REASON];

  describe("teams", () => {
    it("createTeam makes the creator a member with the creator defaults and selects the team", async () => {
      const { app, user } = await signedUpClient(getTarget());
      const name = uniqueTag("rocket");
      const team = await user.createTeam({ displayName: name });
      expect(team.displayName).toBe(name);
      const me = await app.getUser({ or: "throw" });
      expect(me.selectedTeam?.id).toBe(team.id);
      expect((await me.listTeams()).map((t) => t.id)).toEqual([team.id]);
      expect(await me.getTeam(team.id)).toMatchObject({ id: team.id, displayName: name });
      for (const permission of [
        "$update_team",
        "$delete_team",
        "$invite_members",
        "$remove_members",
        "$read_members",
      ]) {
        expect(await me.hasPermission(team, permission)).toBe(true);
      }
      expect((await me.listPermissions(team, { recursive: false })).map((p) => p.id)).toEqual(["team_admin"]);
    });

    it("lets the creator update the team, and refuses a plain member with TEAM_PERMISSION_REQUIRED", async () => {
      const { owner, member, team } = await teamWithMember(getTarget());
      const ownTeam = (await owner.user.getTeam(team.id))!;
      await ownTeam.update({ displayName: "Renamed", clientMetadata: { plan: "team" } });
      expect(await owner.user.getTeam(team.id)).toMatchObject({
        displayName: "Renamed",
        clientMetadata: { plan: "team" },
      });
      const memberTeam = (await (await member.app.getUser({ or: "throw" })).getTeam(team.id))!;
      const error = await expectKnownError(
        memberTeam.update({ displayName: "Hijack" }),
        "TEAM_PERMISSION_REQUIRED",
        401,
      );
      expect(error.details).toEqual({ team_id: team.id, user_id: member.userId, permission_id: "$update_team" });
      await expectKnownError(memberTeam.delete(), "TEAM_PERMISSION_REQUIRED", 401);
    });

    it("server createTeam, getTeam, addUser and removeUser; the server team has createdAt and serverMetadata", async () => {
      const target = getTarget();
      const server = serverApp(target);
      const { userId } = await signedUpClient(target);
      const team = await server.createTeam({ displayName: uniqueTag("ops") });
      await team.update({ serverMetadata: { tier: 2 } });
      const read = (await server.getTeam(team.id))!;
      expect(read.serverMetadata).toEqual({ tier: 2 });
      expect(read.createdAt).toBeInstanceOf(Date);
      await read.addUser(userId);
      expect((await read.listUsers()).map((u) => u.id)).toEqual([userId]);
      await expectKnownError(read.addUser(userId), "TEAM_MEMBERSHIP_ALREADY_EXISTS", 409);
      await read.removeUser(userId);
      expect(await read.listUsers()).toEqual([]);
      await expectKnownError(read.removeUser(userId), "TEAM_MEMBERSHIP_NOT_FOUND", 404);
      expect(await server.getTeam(crypto.randomUUID())).toBeNull();
    });

    it("server listTeams pages with limit and nextCursor; a user's listTeams has only its teams", async () => {
      const target = getTarget();
      const server = serverApp(target);
      const tag = uniqueTag("paged");
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await server.createTeam({ displayName: `${tag} ${i}` })).id);
      const first = await server.listTeams({ query: tag, limit: 2 });
      expect(first.length).toBe(2);
      const second = await server.listTeams({ query: tag, limit: 2, cursor: first.nextCursor! });
      expect([...first, ...second].map((t) => t.id).sort()).toEqual([...made].sort());
      expect(second.nextCursor).toBeNull();
      const { userId } = await signedUpClient(target);
      await (await server.getTeam(made[1]!))!.addUser(userId);
      const user = (await server.getUser(userId))!;
      expect((await user.listTeams()).map((t) => t.id)).toEqual([made[1]]);
    });

    it("leaveTeam needs no permission and unselects the team", async () => {
      const { member, team } = await teamWithMember(getTarget());
      const me = await member.app.getUser({ or: "throw" });
      await me.setSelectedTeam(team);
      expect((await member.app.getUser({ or: "throw" })).selectedTeam?.id).toBe(team.id);
      await me.leaveTeam(team);
      const after = await member.app.getUser({ or: "throw" });
      expect(after.selectedTeam).toBeNull();
      expect(await after.listTeams()).toEqual([]);
      expect(await after.getTeam(team.id)).toBeNull();
    });

    it("the creator deletes the team; members lose it", async () => {
      const target = getTarget();
      const { owner, member, team } = await teamWithMember(target);
      await (await owner.user.getTeam(team.id))!.delete();
      expect(await serverApp(target).getTeam(team.id)).toBeNull();
      expect(await (await member.app.getUser({ or: "throw" })).listTeams()).toEqual([]);
    });

    it("member profiles: each edits its own; team.listUsers shows them, the server with the whole user", async () => {
      const { owner, member, team, serverTeam } = await teamWithMember(getTarget());
      const profile = await (await member.app.getUser({ or: "throw" })).getTeamProfile(team);
      expect(profile).toMatchObject({ displayName: null, profileImageUrl: null });
      await profile.update({ displayName: "Mo", profileImageUrl: "https://img.example.com/mo.png" });
      const users = await (await owner.user.getTeam(team.id))!.listUsers();
      expect(users.find((u) => u.id === member.userId)?.teamProfile).toEqual({
        displayName: "Mo",
        profileImageUrl: "https://img.example.com/mo.png",
      });
      const serverUsers = await serverTeam.listUsers();
      expect(serverUsers.find((u) => u.id === member.userId)).toMatchObject({
        primaryEmail: member.email,
        teamProfile: { displayName: "Mo" },
      });
    });
  });

  describe("team invitations", () => {
    itIf(outbox)("inviteUser emails a code; the invitee checks it, reads the team name, accepts once", async () => {
      const target = getTarget();
      const { owner, team } = await teamWithMember(target);
      const email = uniqueEmail("invitee");
      const ownTeam = (await owner.user.getTeam(team.id))!;
      await ownTeam.inviteUser({ email, callbackUrl: INVITE_CALLBACK });
      const sent = await invitationEmail(target, email);
      expect(sent.link).toBe(`${INVITE_CALLBACK}?code=${sent.code!}`);
      expect((await ownTeam.listInvitations()).map((i) => i.recipientEmail)).toEqual([email]);

      const invitee = await verifiedClient(target, email);
      expect(await invitee.app.verifyTeamInvitationCode(sent.code!)).toEqual({ status: "ok", data: undefined });
      expect(await invitee.app.getTeamInvitationDetails(sent.code!)).toEqual({
        status: "ok",
        data: { teamDisplayName: team.displayName },
      });
      expect(await invitee.app.acceptTeamInvitation(sent.code!)).toEqual({ status: "ok", data: undefined });
      const joined = await invitee.app.getUser({ or: "throw" });
      expect((await joined.listTeams()).map((t) => t.id)).toEqual([team.id]);
      expect(await joined.hasPermission(team, "$read_members")).toBe(true);
      const again = await invitee.app.acceptTeamInvitation(sent.code!);
      expect(again.status === "error" && again.error.code).toBe("VERIFICATION_CODE_ALREADY_USED");
      expect(await ownTeam.listInvitations()).toEqual([]);
    });

    itIf(outbox)(
      "admits by code a user who signed up with another address (the service checks no address on accept)",
      async () => {
        const target = getTarget();
        const { owner, team } = await teamWithMember(target);
        const email = uniqueEmail("invited");
        await (await owner.user.getTeam(team.id))!.inviteUser({ email, callbackUrl: INVITE_CALLBACK });
        const { code } = await invitationEmail(target, email);
        const stranger = await verifiedClient(target);
        expect(await stranger.app.acceptTeamInvitation(code!)).toEqual({ status: "ok", data: undefined });
        expect((await stranger.user.listTeams()).map((t) => t.id)).toEqual([team.id]);
        const bogus = await stranger.app.verifyTeamInvitationCode("0".repeat(45));
        expect(bogus.status === "error" && bogus.error.code).toBe("VERIFICATION_CODE_NOT_FOUND");
      },
    );

    itIf(outbox)(
      "a received invitation is listed for its verified recipient and accepted by id; a sent one can be revoked",
      async () => {
        const target = getTarget();
        const { owner, team } = await teamWithMember(target);
        const ownTeam = (await owner.user.getTeam(team.id))!;
        const [first, second] = [uniqueEmail("listed"), uniqueEmail("revoked")];
        await ownTeam.inviteUser({ email: first, callbackUrl: INVITE_CALLBACK });
        await ownTeam.inviteUser({ email: second, callbackUrl: INVITE_CALLBACK });
        const invitee = await verifiedClient(target, first);
        const received = await invitee.user.listTeamInvitations();
        expect(received).toMatchObject([{ teamId: team.id, teamDisplayName: team.displayName, recipientEmail: first }]);
        await received[0]!.accept();
        expect((await invitee.user.listTeams()).map((t) => t.id)).toEqual([team.id]);
        const pending = await ownTeam.listInvitations();
        expect(pending.map((i) => i.recipientEmail)).toEqual([second]);
        await pending[0]!.revoke();
        const { code } = await invitationEmail(target, second);
        const late = await (await verifiedClient(target, second)).app.acceptTeamInvitation(code!);
        expect(late.status === "error" && late.error.code).toBe("VERIFICATION_CODE_NOT_FOUND");
      },
    );

    itIf(outbox, needs.controls(getTarget()))(
      "an invitation code expires by the provider's clock (7 days)",
      async () => {
        const target = getTarget();
        const { owner, team } = await teamWithMember(target);
        const email = uniqueEmail("expiring");
        await (await owner.user.getTeam(team.id))!.inviteUser({ email, callbackUrl: INVITE_CALLBACK });
        const { code } = await invitationEmail(target, email);
        const invitee = await verifiedClient(target, email);
        await target.controls!.advanceClock(7 * 24 * 60 * 60 * 1000);
        const result = await invitee.app.getTeamInvitationDetails(code!);
        expect(result.status === "error" && result.error.code).toBe("VERIFICATION_CODE_EXPIRED");
      },
    );
  });

  describe("team creation settings", () => {
    itIf(ownProjectNeed(getTarget()))(
      "refuses client team creation when the project disables it, with the service's plain 403",
      async () => {
        const target = await projectOfItsOwn(getTarget());
        await (await adminApp(target).getProject()).update({ config: { clientTeamCreationEnabled: false } });
        const { user, userId } = await signedUpClient(target);
        expect(await expectPlainError(user.createTeam({ displayName: "Refused" }), 403)).toBe(
          "Client team creation is disabled for this project",
        );
        const made = await serverApp(target).createTeam({
          displayName: uniqueTag("server-made"),
          creatorUserId: userId,
        });
        expect((await (await serverApp(target).getUser(userId))!.listTeams()).map((t) => t.id)).toEqual([made.id]);
      },
    );
  });
}
