import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import {
  membershipKey,
  projectGrantKey,
  teamGrantKey,
  type ProjectPermissionGrantRecord,
  type TeamPermissionGrantRecord,
} from "../../store/team-records.ts";
import type { OpContext } from "../context.ts";
import { expandPermissions, findDefinition, requireDefinition } from "./permissions.ts";

/**
 * Granted permissions (spec §6; protocol.md §5.4): direct grants per team member and per project user, listings with
 * `recursive` (default true, spec §9) expanding contained permissions, and the checks client writes need.
 */

export interface GrantedTeamPermission {
  id: string;
  teamId: string;
  userId: string;
}

export interface GrantedProjectPermission {
  id: string;
  userId: string;
}

const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Direct grants as stored; a grant needs the membership (it goes when the membership goes). */
export function grantTeamPermission(
  ctx: OpContext,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): GrantedTeamPermission {
  requireDefinition(ctx, projectId, "team", permissionId);
  if (!ctx.tables.teamMemberships.has(membershipKey(teamId, userId)))
    throw knownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: teamId, user_id: userId });
  const key = teamGrantKey(teamId, userId, permissionId);
  // Granting again keeps the first grant's time, as the real row is created once.
  const createdAtMillis = ctx.tables.teamPermissionGrants.get(key)?.createdAtMillis ?? ctx.now;
  const record: TeamPermissionGrantRecord = { projectId, teamId, userId, permissionId, createdAtMillis };
  ctx.tables.teamPermissionGrants.set(key, record);
  return { id: permissionId, teamId, userId };
}

/**
 * Revoking what was never granted directly is TEAM_PERMISSION_NOT_FOUND (the catalogue's "not-exist" twin of
 * REQUIRED), an unknown permission id included: the real handler looks for the grant, not the definition.
 */
export function revokeTeamPermission(ctx: OpContext, teamId: string, userId: string, permissionId: string): void {
  const key = teamGrantKey(teamId, userId, permissionId);
  if (!ctx.tables.teamPermissionGrants.has(key))
    throw knownError("TEAM_PERMISSION_NOT_FOUND", { team_id: teamId, user_id: userId, permission_id: permissionId });
  ctx.tables.teamPermissionGrants.delete(key);
}

export function grantProjectPermission(
  ctx: OpContext,
  projectId: string,
  userId: string,
  permissionId: string,
): GrantedProjectPermission {
  requireDefinition(ctx, projectId, "project", permissionId);
  const key = projectGrantKey(userId, permissionId);
  const createdAtMillis = ctx.tables.projectPermissionGrants.get(key)?.createdAtMillis ?? ctx.now;
  const record: ProjectPermissionGrantRecord = { projectId, userId, permissionId, createdAtMillis };
  ctx.tables.projectPermissionGrants.set(key, record);
  return { id: permissionId, userId };
}

/**
 * The catalogue has no project twin of TEAM_PERMISSION_NOT_FOUND: a grant that does not exist is PERMISSION_NOT_FOUND
 * (whatever the id names, as the real handler looks for the grant, not the definition).
 */
export function revokeProjectPermission(ctx: OpContext, userId: string, permissionId: string): void {
  const key = projectGrantKey(userId, permissionId);
  if (!ctx.tables.projectPermissionGrants.has(key))
    throw knownError("PERMISSION_NOT_FOUND", { permission_id: permissionId });
  ctx.tables.projectPermissionGrants.delete(key);
}

/**
 * Grants the project defaults (spec §6 "Defaults configurable in the project"). A default naming no definition of the
 * right scope grants nothing; deleting a definition prunes the defaults anyway (permissions.ts).
 */
export function grantTeamDefaults(
  ctx: OpContext,
  projectId: string,
  teamId: string,
  userId: string,
  ids: readonly { id: string }[],
): string[] {
  const granted: string[] = [];
  for (const { id } of ids) {
    if (findDefinition(ctx, projectId, id)?.scope !== "team") continue;
    ctx.tables.teamPermissionGrants.set(teamGrantKey(teamId, userId, id), {
      projectId,
      teamId,
      userId,
      permissionId: id,
      createdAtMillis: ctx.now,
    });
    granted.push(id);
  }
  return granted;
}

/** The user default, applied when a user is created, whatever the path (sign-up, server create, ...). */
export function grantUserDefaults(ctx: OpContext, user: UserRecord): void {
  const project = ctx.tables.projects.get(user.projectId);
  for (const { id } of project?.config.user_default_permissions ?? []) {
    if (findDefinition(ctx, user.projectId, id)?.scope !== "project") continue;
    ctx.tables.projectPermissionGrants.set(projectGrantKey(user.id, id), {
      projectId: user.projectId,
      userId: user.id,
      permissionId: id,
      createdAtMillis: ctx.now,
    });
  }
}

export interface TeamPermissionFilter {
  teamId?: string;
  userId?: string;
  permissionId?: string;
  recursive: boolean;
}

/** GET /team-permissions: per (team, user), the direct grants or their closure; sorted by team, user, id. */
export function listTeamPermissions(
  ctx: OpContext,
  projectId: string,
  filter: TeamPermissionFilter,
): GrantedTeamPermission[] {
  const direct = new Map<string, { teamId: string; userId: string; ids: string[] }>();
  for (const grant of ctx.tables.teamPermissionGrants.values()) {
    if (grant.projectId !== projectId) continue;
    if (filter.teamId !== undefined && grant.teamId !== filter.teamId) continue;
    if (filter.userId !== undefined && grant.userId !== filter.userId) continue;
    const key = membershipKey(grant.teamId, grant.userId);
    const entry = direct.get(key) ?? { teamId: grant.teamId, userId: grant.userId, ids: [] };
    entry.ids.push(grant.permissionId);
    direct.set(key, entry);
  }
  const out: GrantedTeamPermission[] = [];
  for (const { teamId, userId, ids } of direct.values()) {
    const all = filter.recursive ? [...expandPermissions(ctx, projectId, ids)] : ids;
    for (const id of all)
      if (filter.permissionId === undefined || id === filter.permissionId) out.push({ id, teamId, userId });
  }
  return out.sort((a, b) => byId(a.teamId, b.teamId) || byId(a.userId, b.userId) || byId(a.id, b.id));
}

/** GET /project-permissions: per user, the direct grants or their closure; sorted by user, id. */
export function listProjectPermissions(
  ctx: OpContext,
  projectId: string,
  filter: { userId?: string; permissionId?: string; recursive: boolean },
): GrantedProjectPermission[] {
  const direct = new Map<string, string[]>();
  for (const grant of ctx.tables.projectPermissionGrants.values()) {
    if (grant.projectId !== projectId || (filter.userId !== undefined && grant.userId !== filter.userId)) continue;
    direct.set(grant.userId, [...(direct.get(grant.userId) ?? []), grant.permissionId]);
  }
  const out: GrantedProjectPermission[] = [];
  for (const [userId, ids] of direct) {
    const all = filter.recursive ? [...expandPermissions(ctx, projectId, ids)] : ids;
    for (const id of all) if (filter.permissionId === undefined || id === filter.permissionId) out.push({ id, userId });
  }
  return out.sort((a, b) => byId(a.userId, b.userId) || byId(a.id, b.id));
}

/** Whether a member holds a team permission, directly or through containment (upstream checks recursively). */
export function hasTeamPermission(
  ctx: OpContext,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): boolean {
  return listTeamPermissions(ctx, projectId, { teamId, userId, permissionId, recursive: true }).length > 0;
}

/** The check behind every client team write: TEAM_PERMISSION_REQUIRED names the team, the user and the permission. */
export function requireTeamPermission(
  ctx: OpContext,
  projectId: string,
  teamId: string,
  userId: string,
  permissionId: string,
): void {
  // As the real check: the membership first (a non-member, or a team that does not exist, is
  // TEAM_MEMBERSHIP_NOT_FOUND), then the permission, recursively.
  if (!ctx.tables.teamMemberships.has(membershipKey(teamId, userId)))
    throw knownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: teamId, user_id: userId });
  if (!hasTeamPermission(ctx, projectId, teamId, userId, permissionId)) {
    throw knownError("TEAM_PERMISSION_REQUIRED", { team_id: teamId, user_id: userId, permission_id: permissionId });
  }
}

/** Removes a member's direct grants in a team (with the membership, as upstream's foreign keys cascade). */
export function dropTeamGrants(ctx: OpContext, teamId: string, userId?: string): void {
  for (const [key, grant] of ctx.tables.teamPermissionGrants.entries()) {
    if (grant.teamId === teamId && (userId === undefined || grant.userId === userId))
      ctx.tables.teamPermissionGrants.delete(key);
  }
}

export function dropProjectGrants(ctx: OpContext, userId: string): void {
  for (const [key, grant] of ctx.tables.projectPermissionGrants.entries()) {
    if (grant.userId === userId) ctx.tables.projectPermissionGrants.delete(key);
  }
}
