import type { ServerTeamCreate, ServerTeamUpdate, TeamListQuery } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { TeamRecord, UserRecord } from "../../store/records.ts";
import { isClient, listingUserId, requireSignedIn, resolveUserId } from "../access.ts";
import type { AuthedContext, OpContext } from "../context.ts";
import { deleteCodesWhere } from "../sign-in/verification-codes.ts";
import { startOnFreePlan } from "../payments/internal-plans.ts";
import { addMember, forgetTeam, isMember, requireMembership } from "./memberships.ts";
import { requireTeamPermission } from "./permission-grants.ts";
import { requireUser } from "../users/users.ts";
import { announceTeamCreated, announceTeamDeleted, announceTeamUpdated } from "../webhooks/webhook-events.ts";
import { assertClientProfileImage } from "../users/profile-image.ts";
import { refusal } from "../../errors/refusals.ts";
import { storedImageUrl } from "../storage/uploaded-images.ts";

/**
 * Teams (spec §3, §4 "Creating a team", §6; protocol.md §5.3, §6.4). A client acts as its user: it lists its own teams,
 * reads teams it belongs to, and writes with the team permissions `$update_team` / `$delete_team`. Server and admin
 * access may do everything.
 */

export function requireTeam(ctx: OpContext, projectId: string, teamId: string): TeamRecord {
  const team = ctx.tables.teams.get(teamId);
  if (!team || team.projectId !== projectId) throw knownError("TEAM_NOT_FOUND", { team_id: teamId });
  return team;
}

/**
 * For a client, the caller must be a member holding `permissionId` (recursively), checked before the team itself as
 * upstream checks: a client naming a team that does not exist hears TEAM_MEMBERSHIP_NOT_FOUND.
 */
export function requireTeamFor(ctx: AuthedContext, teamId: string, permissionId: string | null): TeamRecord {
  const { auth } = ctx;
  const caller = isClient(auth) ? requireSignedIn(auth) : null;
  if (caller && permissionId === null) requireMembership(ctx, teamId, caller.id);
  if (caller && permissionId !== null) requireTeamPermission(ctx, auth.project.id, teamId, caller.id, permissionId);
  return requireTeam(ctx, auth.project.id, teamId);
}

/**
 * POST /teams. A client needs a user and `client_team_creation_enabled` (spec §6; the real handler's plain 403
 * otherwise), and may only name itself as creator. The creator joins with the team-creator defaults (spec §4).
 */
export function createTeam(ctx: AuthedContext, body: ServerTeamCreate): TeamRecord {
  const { auth } = ctx;
  let creator: UserRecord | null = null;
  if (isClient(auth)) {
    const user = requireSignedIn(auth);
    if (!auth.project.config.client_team_creation_enabled) throw refusal("clientTeamCreationDisabled");
    assertClientProfileImage(body.profile_image_url);
    // Upstream's plain 403 for a client naming someone else as the creator.
    const creatorId = resolveUserId(auth, body.creator_user_id ?? user.id);
    if (creatorId !== user.id) throw refusal("youCannotCreateTeamAs");
    creator = requireUser(ctx, auth.project.id, creatorId);
  } else if (body.creator_user_id !== undefined) {
    creator = requireUser(ctx, auth.project.id, resolveUserId(auth, body.creator_user_id));
  }
  const team: TeamRecord = {
    id: uuid(ctx.random),
    projectId: auth.project.id,
    displayName: body.display_name,
    profileImageUrl: storedImageUrl(ctx, body.profile_image_url, "team-profile-images") ?? null,
    clientMetadata: body.client_metadata ?? null,
    clientReadOnlyMetadata: body.client_read_only_metadata ?? null,
    serverMetadata: body.server_metadata ?? null,
    createdAtMillis: ctx.now,
  };
  ctx.tables.teams.set(team.id, team);
  // The creator joins; the selection stays as it was (the SDK selects the new team itself, spec §4; upstream's
  // endpoint leaves it).
  if (creator) addMember(ctx, team, creator, "creator");
  startOnFreePlan(ctx, team);
  announceTeamCreated(ctx, team);
  return team;
}

/** GET /teams/{id}: a client must be a member. */
export function getTeam(ctx: AuthedContext, teamId: string): TeamRecord {
  return requireTeamFor(ctx, teamId, null);
}

/** PATCH /teams/{id}: the route's schema already limits a client to the client fields. */
export function updateTeam(ctx: AuthedContext, teamId: string, body: ServerTeamUpdate): TeamRecord {
  if (isClient(ctx.auth)) assertClientProfileImage(body.profile_image_url);
  const team = requireTeamFor(ctx, teamId, "$update_team");
  const next: TeamRecord = {
    ...team,
    ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
    ...(body.profile_image_url !== undefined
      ? { profileImageUrl: storedImageUrl(ctx, body.profile_image_url, "team-profile-images") }
      : {}),
    ...(body.client_metadata !== undefined ? { clientMetadata: body.client_metadata } : {}),
    ...(body.client_read_only_metadata !== undefined ? { clientReadOnlyMetadata: body.client_read_only_metadata } : {}),
    ...(body.server_metadata !== undefined ? { serverMetadata: body.server_metadata } : {}),
  };
  ctx.tables.teams.set(team.id, next);
  announceTeamUpdated(ctx, next);
  return next;
}

/** DELETE /teams/{id}: memberships, grants, profiles, pending invitations and members' selection of it go too. */
export function deleteTeam(ctx: AuthedContext, teamId: string): void {
  const team = requireTeamFor(ctx, teamId, "$delete_team");
  forgetTeam(ctx, team.id);
  deleteCodesWhere(
    ctx,
    (c) => c.purpose === "team_invitation" && c.projectId === team.projectId && c.data.team_id === team.id,
  );
  ctx.tables.teams.delete(team.id);
  announceTeamDeleted(ctx, team);
}

export interface TeamPage {
  items: TeamRecord[];
  nextCursor: string | null;
  paginated: boolean;
}

/**
 * GET /teams: a client lists only its own teams (`user_id=me`); oldest first (upstream orders by created time), then
 * by id; `cursor` is the id of the first team of the page.
 */
export function listTeams(ctx: AuthedContext, q: TeamListQuery): TeamPage {
  const { auth } = ctx;
  if (isClient(auth)) {
    // A client lists its own teams only: upstream's plain 403 otherwise (a missing user_id included).
    if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    if (q.user_id === undefined || resolveUserId(auth, q.user_id) !== auth.user.id) {
      throw refusal("clientListOwnTeamsOnly");
    }
  }
  const userId = listingUserId(auth, q.user_id);
  const needle = q.query?.toLowerCase();
  const teams = [...ctx.tables.teams.values()].filter(
    (t) =>
      t.projectId === auth.project.id &&
      (userId === undefined || isMember(ctx, t.id, userId)) &&
      (!needle || t.displayName.toLowerCase().includes(needle) || t.id.includes(needle)),
  );
  const direction = q.desc ? -1 : 1;
  teams.sort((a, b) => direction * (a.createdAtMillis - b.createdAtMillis) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let start = 0;
  if (q.cursor) {
    start = teams.findIndex((t) => t.id === q.cursor);
    if (start === -1) start = teams.length;
  }
  const limit = q.limit ?? teams.length;
  return {
    items: teams.slice(start, start + limit),
    nextCursor: teams[start + limit]?.id ?? null,
    paginated: q.limit !== undefined,
  };
}
