import { linkWithCode } from "../../email/templates.ts";
import { knownError } from "../../errors/known-error.ts";
import type { TeamRecord, UserRecord, VerificationCodeRecord } from "../../store/records.ts";
import type { Tables } from "../../store/store.ts";
import { isClient, requireSignedIn, resolveUserId } from "../access.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import type { AuthedContext } from "../context.ts";
import { assertSeatAvailable } from "../payments/internal-plans.ts";
import { addMember, isMember, requireMembership } from "./memberships.ts";
import { sendEmail } from "../emails/outbox.ts";
import { requireTeamPermission } from "./permission-grants.ts";
import { requireTeam } from "./teams.ts";
import { restrictedReasonOf } from "../../views/users.ts";
import { createCode, redeemCode } from "../sign-in/verification-codes.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Team invitations (spec §4 "Verification codes"; protocol.md §5.5). An invitation is a verification code of purpose
 * "team_invitation" (as upstream keeps them): its id is the invitation id, it expires by the clock, is used once, and
 * counts guesses. The email goes to the outbox with the code and the link `callback_url?code=<code>`.
 */

export interface Invitation {
  code: VerificationCodeRecord;
  team: TeamRecord;
  recipientEmail: string;
}

const teamIdOf = (code: VerificationCodeRecord) => String(code.data.team_id);
const recipientOf = (code: VerificationCodeRecord) => String(code.data.recipient_email);

/** The addresses a user has proven: their verified contact channels (the verified primary email is one of them). */
export function verifiedEmailsOf(tables: Tables, user: UserRecord): Set<string> {
  const emails = new Set<string>();
  if (user.primaryEmail && user.primaryEmailVerified) emails.add(user.primaryEmail.toLowerCase());
  for (const channel of tables.contactChannels.values()) {
    if (channel.userId === user.id && channel.type === "email" && channel.isVerified)
      emails.add(channel.value.toLowerCase());
  }
  return emails;
}

/** POST /team-invitations/send-code: a client needs `$invite_members` in the team. */
export function sendInvitation(
  ctx: AuthedContext,
  body: { email: string; team_id: string; callback_url: string },
): VerificationCodeRecord {
  const { auth } = ctx;
  // The real order: a client's membership and permission, the callback (when the code is made), then the team (when
  // the email is written).
  if (isClient(auth))
    requireTeamPermission(ctx, auth.project.id, body.team_id, requireSignedIn(auth).id, "$invite_members");
  assertTrustedCallback(auth.project, body.callback_url);
  const team = requireTeam(ctx, auth.project.id, body.team_id);
  const code = createCode(ctx, {
    projectId: team.projectId,
    purpose: "team_invitation",
    data: { team_id: team.id, recipient_email: body.email },
  });
  sendEmail(ctx, {
    projectId: team.projectId,
    to: body.email,
    kind: "team_invitation",
    code: code.code,
    link: linkWithCode(body.callback_url, code.code),
    teamName: team.displayName,
  });
  return code;
}

function invitationFrom(ctx: AuthedContext, code: VerificationCodeRecord): Invitation {
  // Deleting a team deletes its invitations, so a live code always names a team.
  return { code, team: requireTeam(ctx, code.projectId, teamIdOf(code)), recipientEmail: recipientOf(code) };
}

/**
 * POST /team-invitations/accept/check-code and /accept/details: look, without using the code. The code is checked
 * first; checking it asks nothing else, as the real check path does.
 */
export function peekInvitation(ctx: AuthedContext, code: string, use: "check" | "details" = "check"): Invitation {
  const invitation = invitationFrom(
    ctx,
    redeemCode(ctx, ctx.auth.project.id, "team_invitation", code, { consume: false }),
  );
  // The details are for a user who may accept: a restricted one is refused as the accept refuses it (as upstream).
  if (use === "details") refuseRestricted(ctx, requireSignedIn(ctx.auth));
  return invitation;
}

/** How many members a team has now (seats of the internal project's teams count them). */
function membersOf(ctx: AuthedContext, teamId: string): number {
  let count = 0;
  for (const membership of ctx.tables.teamMemberships.values()) if (membership.teamId === teamId) count++;
  return count;
}

function refuseRestricted(ctx: AuthedContext, user: UserRecord): void {
  const reason = restrictedReasonOf(ctx.tables, user);
  if (reason) throw knownError("TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: reason });
}

/**
 * Joins the invited team with the member defaults, after the internal project's seat count (ITEM_QUANTITY_INSUFFICIENT_AMOUNT).
 * Accepting while already a member just uses the code up.
 */
function join(ctx: AuthedContext, invitation: Invitation, user: UserRecord): void {
  assertSeatAvailable(ctx, invitation.team.id, membersOf(ctx, invitation.team.id));
  if (!isMember(ctx, invitation.team.id, user.id)) addMember(ctx, invitation.team, user, "member");
}

/**
 * POST /team-invitations/accept {code}. Holding the code is enough: the mirrored handler refuses restricted users
 * (TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED) but does not ask which addresses the user has verified, so an invitee
 * signed up with another address, or with the invited one unverified, joins (its e2e test "allows team admins to be
 * added when item quantity is increased" relies on it).
 */
export function acceptInvitation(ctx: AuthedContext, code: string): Invitation {
  // The code first, then the user, as the real handler checks them. A refusal leaves the code unused: it is marked
  // used only on success.
  const record = redeemCode(ctx, ctx.auth.project.id, "team_invitation", code, { consume: false });
  const invitation = invitationFrom(ctx, record);
  const user = requireSignedIn(ctx.auth);
  refuseRestricted(ctx, user);
  join(ctx, invitation, user);
  ctx.tables.verificationCodes.set(record.id, { ...record, usedAtMillis: ctx.now });
  return invitation;
}

/** A live invitation by id, or the verification error its code would give (protocol.md §3.2 VERIFICATION_CODE_*). */
function liveInvitationById(ctx: AuthedContext, invitationId: string, teamId?: string): Invitation {
  const code = ctx.tables.verificationCodes.get(invitationId);
  const matches =
    code &&
    code.projectId === ctx.auth.project.id &&
    code.purpose === "team_invitation" &&
    (teamId === undefined || teamIdOf(code) === teamId);
  if (!matches) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  if (code.usedAtMillis !== null) throw knownError("VERIFICATION_CODE_ALREADY_USED");
  if (code.expiresAtMillis <= ctx.now) throw knownError("VERIFICATION_CODE_EXPIRED");
  return invitationFrom(ctx, code);
}

/**
 * POST /team-invitations/{id}/accept?user_id=: a client accepts for itself (refused while restricted), a server for any
 * user. Unlike the code, the id alone proves nothing: the user must have verified the invited address. As in the
 * mirrored handler, a client naming another user is CANNOT_GET_OWN_USER_WITHOUT_USER, and everything else that keeps
 * the invitation from this user (unknown, used or expired, a user nobody has, an address not verified) is one answer,
 * VERIFICATION_CODE_NOT_FOUND, so the id tells a caller nothing about the invitation.
 */
export function acceptInvitationById(ctx: AuthedContext, invitationId: string, userIdOrMe: string): void {
  const { auth } = ctx;
  const userId = resolveUserId(auth, userIdOrMe);
  if (isClient(auth)) {
    if (userId !== auth.user?.id) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    refuseRestricted(ctx, requireSignedIn(auth));
  }
  const code = ctx.tables.verificationCodes.get(invitationId);
  const live =
    code?.projectId === auth.project.id &&
    code.purpose === "team_invitation" &&
    code.usedAtMillis === null &&
    code.expiresAtMillis > ctx.now;
  if (!live) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  const invitation = invitationFrom(ctx, code);
  const user = ctx.tables.users.get(userId);
  if (
    user?.projectId !== auth.project.id ||
    !verifiedEmailsOf(ctx.tables, user).has(invitation.recipientEmail.toLowerCase())
  )
    throw knownError("VERIFICATION_CODE_NOT_FOUND");
  ctx.tables.verificationCodes.set(code.id, { ...code, usedAtMillis: ctx.now });
  join(ctx, invitation, user);
}

/**
 * GET /team-invitations?team_id= (a client needs membership, `$read_members` and `$invite_members`, as upstream) or
 * ?user_id= (the pending invitations to that user's verified emails). Oldest first.
 */
export function listInvitations(ctx: AuthedContext, q: { teamId?: string; userIdOrMe?: string }): Invitation[] {
  const { auth } = ctx;
  // One of the two filters, never both (upstream's plain 400s, for every access type).
  if (q.teamId !== undefined && q.userIdOrMe !== undefined) throw refusal("cannotSpecifyBothTeamId");
  if (q.teamId === undefined && q.userIdOrMe === undefined) throw refusal("specifyEitherTeamIdUser");
  let teamId: string | undefined;
  if (q.teamId !== undefined) {
    teamId = q.teamId;
    // A client's membership and permissions (not the team: an unknown one is TEAM_MEMBERSHIP_NOT_FOUND); a server's team.
    if (isClient(auth)) {
      const caller = requireSignedIn(auth);
      requireMembership(ctx, teamId, caller.id);
      for (const permission of ["$read_members", "$invite_members"])
        requireTeamPermission(ctx, auth.project.id, teamId, caller.id, permission);
    } else requireTeam(ctx, auth.project.id, teamId);
  }
  const userId = q.userIdOrMe === undefined ? undefined : resolveUserId(auth, q.userIdOrMe);
  // A client names only itself; upstream words another user as it words a missing one.
  if (isClient(auth) && userId !== undefined && userId !== auth.user?.id)
    throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  // By user: the invitations to the user's verified emails; a user nobody has has none (the real listing reads
  // contact channels by user id alone).
  const listed = userId === undefined ? undefined : ctx.tables.users.get(userId);
  const emails =
    userId === undefined
      ? undefined
      : listed && listed.projectId === auth.project.id
        ? verifiedEmailsOf(ctx.tables, listed)
        : new Set<string>();
  return [...ctx.tables.verificationCodes.values()]
    .filter(
      (c) =>
        c.projectId === auth.project.id &&
        c.purpose === "team_invitation" &&
        c.usedAtMillis === null &&
        c.expiresAtMillis > ctx.now &&
        (teamId === undefined || teamIdOf(c) === teamId) &&
        (emails === undefined || emails.has(recipientOf(c).toLowerCase())),
    )
    .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => invitationFrom(ctx, c));
}

/** DELETE /team-invitations/{id}?team_id=: a client must be a member holding `$remove_members` (as upstream). */
export function revokeInvitation(ctx: AuthedContext, invitationId: string, teamId: string): void {
  const { auth } = ctx;
  // A client's membership and permission, else the team, as the real handler checks.
  if (isClient(auth)) {
    const caller = requireSignedIn(auth);
    requireMembership(ctx, teamId, caller.id);
    requireTeamPermission(ctx, auth.project.id, teamId, caller.id, "$remove_members");
  } else requireTeam(ctx, auth.project.id, teamId);
  ctx.tables.verificationCodes.delete(liveInvitationById(ctx, invitationId, teamId).code.id);
}
