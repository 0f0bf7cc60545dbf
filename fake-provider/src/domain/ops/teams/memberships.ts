import { knownError } from "../../errors/known-error.ts";
import type { TeamMembershipRecord, TeamRecord, UserRecord } from "../../store/records.ts";
import { membershipKey } from "../../store/team-records.ts";
import type { OpContext } from "../context.ts";
import { dropProjectGrants, dropTeamGrants, grantTeamDefaults } from "./permission-grants.ts";
import { setUserFields } from "../users/user-fields.ts";
import {
  announceMembershipCreated,
  announceMembershipDeleted,
  announceTeamPermission,
} from "../webhooks/webhook-events.ts";

/**
 * Team memberships (protocol.md §5.4). Adding a member applies the project's creator or member default permissions
 * (spec §6); removing one takes its grants and profile with it, and unselects the team if it was the user's selected one.
 */

export function isMember(ctx: OpContext, teamId: string, userId: string): boolean {
  return ctx.tables.teamMemberships.has(membershipKey(teamId, userId));
}

export function requireMembership(ctx: OpContext, teamId: string, userId: string): TeamMembershipRecord {
  const membership = ctx.tables.teamMemberships.get(membershipKey(teamId, userId));
  if (!membership) throw knownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: teamId, user_id: userId });
  return membership;
}

export function addMember(
  ctx: OpContext,
  team: TeamRecord,
  user: UserRecord,
  role: "creator" | "member",
): TeamMembershipRecord {
  if (isMember(ctx, team.id, user.id)) throw knownError("TEAM_MEMBERSHIP_ALREADY_EXISTS");
  const membership: TeamMembershipRecord = {
    projectId: team.projectId,
    teamId: team.id,
    userId: user.id,
    createdAtMillis: ctx.now,
  };
  ctx.tables.teamMemberships.set(membershipKey(team.id, user.id), membership);
  const config = ctx.tables.projects.get(team.projectId)?.config;
  const defaults =
    role === "creator" ? config?.team_creator_default_permissions : config?.team_member_default_permissions;
  const granted = grantTeamDefaults(ctx, team.projectId, team.id, user.id, defaults ?? []);
  // A member added (the memberships endpoint, an accepted invitation) is announced with the permissions it was given;
  // a team's creator joins with the team, which the team's own announcement covers (as the real service does).
  if (role === "member") {
    announceMembershipCreated(ctx, team.projectId, team.id, user.id);
    for (const id of granted)
      announceTeamPermission(ctx, "created", team.projectId, { id, teamId: team.id, userId: user.id });
  }
  return membership;
}

/** Makes `teamId` the user's selected team (spec §4 "Creating a team"), or clears it with null. */
export function selectTeam(ctx: OpContext, userId: string, teamId: string | null): void {
  const user = ctx.tables.users.get(userId);
  if (user && user.selectedTeamId !== teamId) setUserFields(ctx, user, { selectedTeamId: teamId });
}

/** `announce`: false when the team or the user goes with it (their deletion is announced instead). */
export function removeMember(ctx: OpContext, teamId: string, userId: string, announce = true): void {
  const membership = requireMembership(ctx, teamId, userId);
  if (announce) announceMembershipDeleted(ctx, membership.projectId, teamId, userId);
  const key = membershipKey(teamId, userId);
  ctx.tables.teamMemberships.delete(key);
  ctx.tables.teamMemberProfiles.delete(key);
  dropTeamGrants(ctx, teamId, userId);
  if (ctx.tables.users.get(userId)?.selectedTeamId === teamId) selectTeam(ctx, userId, null);
}

export function membersOf(ctx: OpContext, teamId: string): TeamMembershipRecord[] {
  return [...ctx.tables.teamMemberships.values()]
    .filter((m) => m.teamId === teamId)
    .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

export function teamsOf(ctx: OpContext, userId: string): TeamMembershipRecord[] {
  return [...ctx.tables.teamMemberships.values()].filter((m) => m.userId === userId);
}

export const teamIdsOf = (ctx: OpContext, userId: string): string[] => teamsOf(ctx, userId).map((m) => m.teamId);

/** Everything of a deleted user in teams and permissions (called by domain/ops/users/users.ts deleteUser). */
export function forgetUser(ctx: OpContext, userId: string): void {
  for (const membership of teamsOf(ctx, userId)) removeMember(ctx, membership.teamId, userId, false);
  dropProjectGrants(ctx, userId);
}

/** Everything of a deleted team: memberships (with grants and profiles), and the members' selection of it. */
export function forgetTeam(ctx: OpContext, teamId: string): void {
  for (const membership of membersOf(ctx, teamId)) removeMember(ctx, teamId, membership.userId, false);
  dropTeamGrants(ctx, teamId);
  for (const user of [...ctx.tables.users.values()]) if (user.selectedTeamId === teamId) selectTeam(ctx, user.id, null);
}
