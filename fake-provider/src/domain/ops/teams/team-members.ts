import type { TeamMemberProfileUpdate } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { TeamMembershipRecord, UserRecord } from "../../store/records.ts";
import { membershipKey, type TeamMemberProfileRecord } from "../../store/team-records.ts";
import { isClient, requireSignedIn, resolveUserId } from "../access.ts";
import type { AuthedContext } from "../context.ts";
import { addMember, membersOf, removeMember, requireMembership, teamsOf } from "./memberships.ts";
import { requireTeamPermission } from "./permission-grants.ts";
import { requireTeam } from "./teams.ts";
import { requireUser } from "../users/users.ts";
import { refusal } from "../../errors/refusals.ts";
import { storedImageUrl } from "../storage/uploaded-images.ts";

/**
 * Membership writes and member profiles (protocol.md §5.4, §6.4): the server adds and removes members; a client may
 * always leave, and removes others with `$remove_members`; a client reads the profiles of its teams (others' with
 * `$read_members`) and edits only its own.
 */

/** POST /team-memberships/{team}/{user} (server and admin only): the new member gets the member defaults. */
/** POST /team-memberships/{team}/{user|me}: the user, then the team, then no membership yet (the real order). */
export function addTeamMember(ctx: AuthedContext, teamId: string, userIdOrMe: string): TeamMembershipRecord {
  const user = requireUser(ctx, ctx.auth.project.id, resolveUserId(ctx.auth, userIdOrMe));
  const team = requireTeam(ctx, ctx.auth.project.id, teamId);
  return addMember(ctx, team, user, "member");
}

/**
 * DELETE /team-memberships/{team}/{user|me}: leaving needs no permission (spec §9b leaveTeam); removing another member
 * needs $remove_members. Then the user and the membership, as the real handler checks (the team itself is not looked
 * up: an unknown team is TEAM_MEMBERSHIP_NOT_FOUND).
 */
export function removeTeamMember(ctx: AuthedContext, teamId: string, userIdOrMe: string): void {
  const { auth } = ctx;
  const userId = resolveUserId(auth, userIdOrMe);
  if (isClient(auth)) {
    const caller = requireSignedIn(auth);
    if (caller.id !== userId) requireTeamPermission(ctx, auth.project.id, teamId, caller.id, "$remove_members");
  }
  requireUser(ctx, auth.project.id, userId);
  removeMember(ctx, teamId, userId);
}

export interface MemberProfile {
  membership: TeamMembershipRecord;
  user: UserRecord;
  displayName: string | null;
  profileImageUrl: string | null;
}

/** A member's profile: the team-specific name and picture, each falling back to the user's own. */
function profileOf(ctx: AuthedContext, membership: TeamMembershipRecord): MemberProfile {
  const user = ctx.tables.users.get(membership.userId)!;
  const own = ctx.tables.teamMemberProfiles.get(membershipKey(membership.teamId, membership.userId));
  return {
    membership,
    user,
    displayName: own?.displayName ?? user.displayName,
    profileImageUrl: own?.profileImageUrl ?? user.profileImageUrl,
  };
}

/**
 * A client reads its own profile in a team it belongs to, and others' (`target` another id, or undefined for everyone)
 * with `$read_members`.
 */
function assertCanRead(ctx: AuthedContext, teamId: string, target: string | undefined): void {
  const { auth } = ctx;
  if (!isClient(auth)) return;
  const caller = requireSignedIn(auth);
  requireMembership(ctx, teamId, caller.id);
  if (target !== caller.id) requireTeamPermission(ctx, auth.project.id, teamId, caller.id, "$read_members");
}

/**
 * GET /team-member-profiles?team_id=&user_id=. A client must name a team, be in it, and hold `$read_members` unless it
 * asks for itself alone; a server may also list a user's profiles across teams, or every profile.
 */
export function listMemberProfiles(ctx: AuthedContext, q: { teamId?: string; userIdOrMe?: string }): MemberProfile[] {
  const { auth } = ctx;
  const userId = q.userIdOrMe === undefined ? undefined : resolveUserId(auth, q.userIdOrMe);
  if (q.teamId === undefined) {
    // A client always names the team (upstream's plain 400); a server may list across teams.
    if (isClient(auth)) {
      if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
      throw refusal("teamIdRequiredAccessType");
    }
    if (userId === undefined)
      return [...ctx.tables.teamMemberships.values()]
        .filter((m) => m.projectId === auth.project.id)
        .map((m) => profileOf(ctx, m));
    return teamsOf(ctx, userId)
      .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.teamId < b.teamId ? -1 : a.teamId > b.teamId ? 1 : 0))
      .map((m) => profileOf(ctx, m));
  }
  // As the real listing: a client's own membership and permission (not the team: an unknown one is
  // TEAM_MEMBERSHIP_NOT_FOUND), a server's team and user.
  if (isClient(auth)) assertCanRead(ctx, q.teamId, userId);
  else {
    requireTeam(ctx, auth.project.id, q.teamId);
    if (userId !== undefined) requireUser(ctx, auth.project.id, userId);
  }
  return membersOf(ctx, q.teamId)
    .filter((m) => userId === undefined || m.userId === userId)
    .map((m) => profileOf(ctx, m));
}

/** GET one: a client's right to read, then the user and the membership (the real checks; the team is not looked up). */
export function getMemberProfile(ctx: AuthedContext, teamId: string, userIdOrMe: string): MemberProfile {
  const userId = resolveUserId(ctx.auth, userIdOrMe);
  assertCanRead(ctx, teamId, userId);
  requireUser(ctx, ctx.auth.project.id, userId);
  return profileOf(ctx, requireMembership(ctx, teamId, userId));
}

/** PATCH: a client edits only its own profile; anyone else's is a server-side operation (access.ts). */
export function updateMemberProfile(
  ctx: AuthedContext,
  teamId: string,
  userIdOrMe: string,
  body: TeamMemberProfileUpdate,
): MemberProfile {
  const { auth } = ctx;
  const userId = resolveUserId(auth, userIdOrMe);
  if (isClient(auth) && requireSignedIn(auth).id !== userId) throw refusal("cannotUpdateAnotherProfile");
  // Then the user and the membership, as the real handler checks (the team is not looked up).
  requireUser(ctx, auth.project.id, userId);
  const membership = requireMembership(ctx, teamId, userId);
  const key = membershipKey(teamId, userId);
  const current = ctx.tables.teamMemberProfiles.get(key);
  const next: TeamMemberProfileRecord = {
    projectId: membership.projectId,
    teamId,
    userId,
    displayName: body.display_name !== undefined ? body.display_name : (current?.displayName ?? null),
    profileImageUrl:
      body.profile_image_url !== undefined
        ? storedImageUrl(ctx, body.profile_image_url, "team-member-profile-images")
        : (current?.profileImageUrl ?? null),
  };
  ctx.tables.teamMemberProfiles.set(key, next);
  return profileOf(ctx, membership);
}
