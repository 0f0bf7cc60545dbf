import { describe, expect, it } from "vitest";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import {
  acceptInvitation,
  acceptInvitationById,
  listInvitations,
  peekInvitation,
  revokeInvitation,
  sendInvitation,
} from "./invitations.ts";
import { revokeTeamPermission } from "./permission-grants.ts";
import { addTeamMember } from "./team-members.ts";
import { createTeam } from "./teams.ts";
import { updateUser } from "../users/users.ts";
import { codeLifetimes, MAX_CODE_ATTEMPTS } from "../sign-in/verification-codes.ts";

/** Team invitations (protocol.md §5.5): who may send, list and revoke; who may accept, and the code's life and guesses. */

const CALLBACK = "http://localhost:3000/handler/team-invitation";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

/** A team (owner = creator, plus a plain member) and an invitation to `email` sent by the owner; the emailed code. */
async function invited(seam: OpSeam, email = "invitee@example.com") {
  const owner = await seam.addUser();
  const member = await seam.addUser();
  const team = await seam.ok(asClient(owner), (ctx) => createTeam(ctx, { display_name: "Rocket" }));
  await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, member.id));
  const record = await seam.ok(asClient(owner), (ctx) =>
    sendInvitation(ctx, { email, team_id: team.id, callback_url: CALLBACK }),
  );
  return { owner, member, team, id: record.id, code: record.code };
}
const verifiedUser = (seam: OpSeam, email: string) =>
  seam.addUser({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true });
const isMember = (seam: OpSeam, teamId: string, userId: string) =>
  seam.tables.teamMemberships.has(`${teamId}:${userId}`);

describe("sendInvitation", () => {
  it("emails the code and the callback link with the team's name", async () => {
    const seam = opSeam();
    const { team, code } = await invited(seam);
    const mail = [...seam.tables.emails.values()].filter((e) => e.kind === "team_invitation").at(-1)!;
    expect([mail.to, mail.code, mail.link]).toEqual([["invitee@example.com"], code, `${CALLBACK}?code=${code}`]);
    expect(mail.subject).toContain(team.displayName);
  });

  it("a client needs $invite_members and a user; anyone a trusted callback and a known team; a server needs no permission", async () => {
    const seam = opSeam();
    const { owner, member, team } = await invited(seam);
    await seam.ok((ctx) => revokeTeamPermission(ctx, team.id, member.id, "team_member"));
    const send =
      (callback_url = CALLBACK, team_id = team.id) =>
      (ctx: Parameters<typeof sendInvitation>[0]) =>
        sendInvitation(ctx, { email: "x@example.com", team_id, callback_url });
    expect((await seam.refuses(asClient(member), send(), "TEAM_PERMISSION_REQUIRED")).details).toEqual({
      team_id: team.id,
      user_id: member.id,
      permission_id: "$invite_members",
    });
    await seam.refuses(asClient(owner), send("https://evil.example.com/cb"), "REDIRECT_URL_NOT_WHITELISTED");
    // A client's membership is checked before the team (the real order); a server's unknown team is TEAM_NOT_FOUND.
    await seam.refuses(asClient(owner), send(CALLBACK, UNKNOWN), "TEAM_MEMBERSHIP_NOT_FOUND");
    await seam.refuses(asServer(), send(CALLBACK, UNKNOWN), "TEAM_NOT_FOUND");
    await seam.refuses(asClient(), send(), "USER_AUTHENTICATION_REQUIRED");
    expect((await seam.run(asServer(), send())).ok).toBe(true);
  });
});

describe("accepting by code", () => {
  it("peeking does not use the code; accepting joins with the member defaults, once", async () => {
    const seam = opSeam();
    const { team, code } = await invited(seam);
    const invitee = await verifiedUser(seam, "invitee@example.com");
    expect((await seam.ok(asClient(invitee), (ctx) => peekInvitation(ctx, code, "details"))).team.id).toBe(team.id);
    await seam.ok(asClient(invitee), (ctx) => acceptInvitation(ctx, code));
    expect(
      [...seam.tables.teamPermissionGrants.values()].filter((g) => g.userId === invitee.id).map((g) => g.permissionId),
    ).toEqual(["team_member"]);
    await seam.refuses(asClient(invitee), (ctx) => acceptInvitation(ctx, code), "VERIFICATION_CODE_ALREADY_USED");
    await seam.refuses(asClient(invitee), (ctx) => peekInvitation(ctx, code), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("refuses an unknown code, a caller without a user, and a code past its 7 days by the clock", async () => {
    const seam = opSeam();
    const { code } = await invited(seam);
    const invitee = await verifiedUser(seam, "invitee@example.com");
    await seam.refuses(
      asClient(invitee),
      (ctx) => acceptInvitation(ctx, "0".repeat(45)),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await seam.refuses(asClient(), (ctx) => peekInvitation(ctx, code, "details"), "USER_AUTHENTICATION_REQUIRED");
    // Checking a code needs no user (the real check path asks only about the code).
    await seam.ok(asClient(), (ctx) => peekInvitation(ctx, code));
    seam.clock.advance(codeLifetimes.team_invitation - 1);
    await seam.ok(asClient(invitee), (ctx) => peekInvitation(ctx, code));
    seam.clock.advance(1);
    await seam.refuses(asClient(invitee), (ctx) => acceptInvitation(ctx, code), "VERIFICATION_CODE_EXPIRED");
  });

  it(`dies after ${MAX_CODE_ATTEMPTS} wrong guesses at its nonce, though each guess was refused`, async () => {
    const seam = opSeam();
    const { code } = await invited(seam);
    const invitee = await verifiedUser(seam, "invitee@example.com");
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
      const out = await seam.run(asClient(invitee), (ctx) =>
        acceptInvitation(ctx, `${i.toString(36).padStart(6, "x")}${code.slice(6)}`),
      );
      expect(out.ok).toBe(false);
    }
    await seam.refuses(
      asClient(invitee),
      (ctx) => acceptInvitation(ctx, code),
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    );
  });

  it("refuses restricted users, leaving the code usable; the code alone admits a user whatever addresses they verified", async () => {
    const seam = opSeam();
    const { team, code } = await invited(seam);
    const anonymous = await seam.addUser({ is_anonymous: true });
    expect(
      (
        await seam.refuses(
          asClient(anonymous),
          (ctx) => acceptInvitation(ctx, code),
          "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
        )
      ).details,
    ).toEqual({
      restricted_reason: { type: "anonymous" },
    });
    // The invited address, unverified: the mirrored accept handler does not ask.
    const unverified = await seam.addUser({ primary_email: "invitee@example.com", primary_email_auth_enabled: true });
    await seam.ok(asClient(unverified), (ctx) => acceptInvitation(ctx, code));
    expect(isMember(seam, team.id, unverified.id)).toBe(true);
    await seam.refuses(asClient(unverified), (ctx) => peekInvitation(ctx, code), "VERIFICATION_CODE_ALREADY_USED");
    // Another address altogether (verified or none at all).
    for (const stranger of [await verifiedUser(seam, "someone-else@example.com"), await seam.addUser()]) {
      const next = await invited(seam);
      await seam.ok(asClient(stranger), (ctx) => acceptInvitation(ctx, next.code));
      expect(isMember(seam, next.team.id, stranger.id)).toBe(true);
    }
  });

  it("a member accepting just uses the code up", async () => {
    const seam = opSeam();
    const { team, code } = await invited(seam);
    const invitee = await verifiedUser(seam, "invitee@example.com");
    await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, invitee.id));
    const membershipsBefore = seam.tables.teamMemberships.size;
    await seam.ok(asClient(invitee), (ctx) => acceptInvitation(ctx, code));
    expect(seam.tables.teamMemberships.size).toBe(membershipsBefore);
    await seam.refuses(asClient(invitee), (ctx) => peekInvitation(ctx, code), "VERIFICATION_CODE_ALREADY_USED");
  });
});

describe("listing, accepting by id, revoking", () => {
  it("a team's pending invitations to a member with $read_members and $invite_members, until they expire; one filter exactly", async () => {
    const seam = opSeam();
    const { owner, member, team, id } = await invited(seam);
    expect(
      (await seam.ok(asClient(member), (ctx) => listInvitations(ctx, { teamId: team.id }))).map((i) => [
        i.code.id,
        i.recipientEmail,
      ]),
    ).toEqual([[id, "invitee@example.com"]]);
    await seam.refuses(
      asClient(await seam.addUser()),
      (ctx) => listInvitations(ctx, { teamId: team.id }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
    );
    expect((await seam.refuses(asServer(), (ctx) => listInvitations(ctx, {}), 400)).message).toBe(
      "Must specify either team_id or user_id",
    );
    expect(
      (await seam.refuses(asServer(), (ctx) => listInvitations(ctx, { teamId: team.id, userIdOrMe: "me" }), 400))
        .message,
    ).toBe("Cannot specify both team_id and user_id");
    seam.clock.advance(codeLifetimes.team_invitation);
    expect(await seam.ok(asClient(owner), (ctx) => listInvitations(ctx, { teamId: team.id }))).toEqual([]);
    // A user id nobody has: no verified addresses, no invitations (the real listing does not look the user up).
    expect(await seam.ok(asServer(), (ctx) => listInvitations(ctx, { userIdOrMe: UNKNOWN }))).toEqual([]);
  });

  it("a user's invitations to their verified addresses, in any letter case, accepted by id for itself only", async () => {
    const seam = opSeam();
    const { team, id } = await invited(seam);
    const invitee = await verifiedUser(seam, "INVITEE@example.com");
    expect(
      (await seam.ok(asClient(invitee), (ctx) => listInvitations(ctx, { userIdOrMe: "me" }))).map((i) => i.code.id),
    ).toEqual([id]);
    const other = await seam.addUser();
    // Another user's id from a client is worded as the mirrored handler words it.
    await seam.refuses(
      asClient(invitee),
      (ctx) => acceptInvitationById(ctx, id, other.id),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await seam.ok(asClient(invitee), (ctx) => acceptInvitationById(ctx, id, "me"));
    expect(isMember(seam, team.id, invitee.id)).toBe(true);
    // Used, expired, unknown, or for a user nobody has: one answer, as the mirrored handler gives.
    await seam.refuses(asClient(invitee), (ctx) => acceptInvitationById(ctx, id, "me"), "VERIFICATION_CODE_NOT_FOUND");
    expect(await seam.ok(asClient(invitee), (ctx) => listInvitations(ctx, { userIdOrMe: "me" }))).toEqual([]);
    const later = await invited(seam, "INVITEE@example.com");
    await seam.refuses(
      asServer(),
      (ctx) => acceptInvitationById(ctx, later.id, UNKNOWN),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await seam.refuses(
      asServer(),
      (ctx) => acceptInvitationById(ctx, UNKNOWN, invitee.id),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    seam.clock.advance(codeLifetimes.team_invitation);
    await seam.refuses(
      asServer(),
      (ctx) => acceptInvitationById(ctx, later.id, invitee.id),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("by id, only a user who verified the invited address may accept (VERIFICATION_CODE_NOT_FOUND otherwise, the code left usable); a restricted client is refused first", async () => {
    const seam = opSeam();
    const { team, id } = await invited(seam);
    const unverified = await seam.addUser({ primary_email: "invitee@example.com", primary_email_auth_enabled: true });
    const stranger = await verifiedUser(seam, "someone-else@example.com");
    for (const user of [unverified, stranger]) {
      await seam.refuses(asClient(user), (ctx) => acceptInvitationById(ctx, id, "me"), "VERIFICATION_CODE_NOT_FOUND");
      await seam.refuses(asServer(), (ctx) => acceptInvitationById(ctx, id, user.id), "VERIFICATION_CODE_NOT_FOUND");
    }
    const anonymous = await seam.addUser({ is_anonymous: true });
    await seam.refuses(
      asClient(anonymous),
      (ctx) => acceptInvitationById(ctx, id, "me"),
      "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
    );
    await seam.ok((ctx) => updateUser(ctx, ctx.tables.users.get(unverified.id)!, { primary_email_verified: true }));
    await seam.ok(asServer(), (ctx) => acceptInvitationById(ctx, id, unverified.id));
    expect(isMember(seam, team.id, unverified.id)).toBe(true);
  });

  it("revoking needs membership and $remove_members from a client; the code then leads nowhere", async () => {
    const seam = opSeam();
    const { owner, member, team, id, code } = await invited(seam);
    const invitee = await verifiedUser(seam, "invitee@example.com");
    await seam.refuses(asClient(invitee), (ctx) => revokeInvitation(ctx, id, team.id), "TEAM_MEMBERSHIP_NOT_FOUND");
    await seam.refuses(asClient(member), (ctx) => revokeInvitation(ctx, id, team.id), "TEAM_PERMISSION_REQUIRED");
    await seam.ok(asClient(owner), (ctx) => revokeInvitation(ctx, id, team.id));
    await seam.refuses(asClient(invitee), (ctx) => acceptInvitation(ctx, code), "VERIFICATION_CODE_NOT_FOUND");
    await seam.refuses(asClient(owner), (ctx) => revokeInvitation(ctx, id, team.id), "VERIFICATION_CODE_NOT_FOUND");
    await seam.refuses(asServer(), (ctx) => revokeInvitation(ctx, UNKNOWN, team.id), "VERIFICATION_CODE_NOT_FOUND");
  });
});
