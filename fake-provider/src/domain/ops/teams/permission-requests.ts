import type { ProjectPermissionListQuery, TeamPermissionListQuery } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import { resolveUserId } from "../access.ts";
import type { AuthedContext } from "../context.ts";
import {
  grantProjectPermission,
  grantTeamPermission,
  listProjectPermissions,
  listTeamPermissions,
  revokeProjectPermission,
  revokeTeamPermission,
  type GrantedProjectPermission,
  type GrantedTeamPermission,
} from "./permission-grants.ts";
import { requireMembership } from "./memberships.ts";
import { announceProjectPermission, announceTeamPermission } from "../webhooks/webhook-events.ts";
import { requireUser } from "../users/users.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The permission endpoints as callers see them (spec §6; protocol.md §5.4): a client lists only its own permissions
 * (`user_id=me`); granting and revoking are server operations (the route's access), per team member or project user.
 */

/**
 * Whose permissions a listing may show. A client needs a user and may name only itself (`me` or its id); anything else,
 * no `user_id` included, is upstream's plain 403 for both listings. Server and admin may name anyone, or no one (all).
 */
function permissionListingUserId(auth: Auth, userIdOrMe: string | undefined): string | undefined {
  if (auth.type !== "client") return userIdOrMe === undefined ? undefined : resolveUserId(auth, userIdOrMe);
  if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  const userId = userIdOrMe === undefined ? undefined : resolveUserId(auth, userIdOrMe);
  if (userId !== auth.user.id) {
    throw refusal("clientListOwnPermissionsOnly");
  }
  return userId;
}

/** GET /team-permissions. */
export function listTeamPermissionsFor(ctx: AuthedContext, q: TeamPermissionListQuery): GrantedTeamPermission[] {
  const { auth } = ctx;
  const userId = permissionListingUserId(auth, q.user_id);
  // An unknown team has no grants (the real listing does not look the team up).
  return listTeamPermissions(ctx, auth.project.id, {
    ...(q.team_id !== undefined ? { teamId: q.team_id } : {}),
    ...(userId !== undefined ? { userId } : {}),
    ...(q.permission_id !== undefined ? { permissionId: q.permission_id } : {}),
    // On the wire only `recursive=true` expands contained permissions (as upstream); the SDK's listing sends
    // `recursive` explicitly and keeps spec §9's default of true on its side (sdk/src/client/permissions.ts).
    recursive: q.recursive ?? false,
  });
}

/** GET /project-permissions. */
export function listProjectPermissionsFor(
  ctx: AuthedContext,
  q: ProjectPermissionListQuery,
): GrantedProjectPermission[] {
  const { auth } = ctx;
  const userId = permissionListingUserId(auth, q.user_id);
  return listProjectPermissions(ctx, auth.project.id, {
    ...(userId !== undefined ? { userId } : {}),
    ...(q.permission_id !== undefined ? { permissionId: q.permission_id } : {}),
    recursive: q.recursive ?? false,
  });
}

/**
 * Who a grant is for, checked as the real handlers check it: the user (USER_NOT_FOUND), then the membership
 * (TEAM_MEMBERSHIP_NOT_FOUND); the team itself is not looked up, so an unknown one is a missing membership.
 */
function teamGrantTarget(ctx: AuthedContext, p: { team_id: string; user_id: string }) {
  const user = requireUser(ctx, ctx.auth.project.id, resolveUserId(ctx.auth, p.user_id));
  requireMembership(ctx, p.team_id, user.id);
  return { teamId: p.team_id, user };
}

export function grantTeamPermissionFor(
  ctx: AuthedContext,
  p: { team_id: string; user_id: string; permission_id: string },
): GrantedTeamPermission {
  const { teamId, user } = teamGrantTarget(ctx, p);
  const granted = grantTeamPermission(ctx, user.projectId, teamId, user.id, p.permission_id);
  announceTeamPermission(ctx, "created", user.projectId, granted);
  return granted;
}

export function revokeTeamPermissionFor(
  ctx: AuthedContext,
  p: { team_id: string; user_id: string; permission_id: string },
): void {
  const { teamId, user } = teamGrantTarget(ctx, p);
  revokeTeamPermission(ctx, teamId, user.id, p.permission_id);
  announceTeamPermission(ctx, "deleted", user.projectId, { id: p.permission_id, teamId, userId: user.id });
}

export function grantProjectPermissionFor(
  ctx: AuthedContext,
  p: { user_id: string; permission_id: string },
): GrantedProjectPermission {
  const user = requireUser(ctx, ctx.auth.project.id, resolveUserId(ctx.auth, p.user_id));
  const granted = grantProjectPermission(ctx, user.projectId, user.id, p.permission_id);
  announceProjectPermission(ctx, "created", user.projectId, granted);
  return granted;
}

export function revokeProjectPermissionFor(ctx: AuthedContext, p: { user_id: string; permission_id: string }): void {
  const user = requireUser(ctx, ctx.auth.project.id, resolveUserId(ctx.auth, p.user_id));
  revokeProjectPermission(ctx, user.id, p.permission_id);
  announceProjectPermission(ctx, "deleted", user.projectId, { id: p.permission_id, userId: user.id });
}
