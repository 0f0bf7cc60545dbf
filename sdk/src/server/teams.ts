import { listEnvelope } from "../contract/areas/common.ts";
import { teamPermission } from "../contract/areas/permissions.ts";
import { serverTeamMemberProfile } from "../contract/areas/team-members.ts";
import { serverTeam, teamListEnvelope, type ServerTeamJson, type TeamListQuery } from "../contract/areas/teams.ts";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { AppContext } from "../client/app-context.ts";
import { teamCalls, teamFromJson, teamPath, teamUpdateToWire, type Team, type TeamCreateOptions, type TeamUpdateOptions, type TeamUser } from "../client/teams.ts";
import { userTeamMethods, type UserTeams } from "../client/user-teams.ts";
import { serverUserFromJson, type ServerUser } from "./server-user.ts";
import type { CursorList } from "./users.ts";
import type { ServerCheckoutOptions } from "../client/items.ts";
import { serverCustomerMethods, type ServerItem } from "./items.ts";

/** Teams with server access (sdk-surface.md §7, §12): the server team view, membership writes, listing and lookup. */

export interface ServerTeamUpdateOptions extends TeamUpdateOptions {
  clientReadOnlyMetadata?: unknown;
  serverMetadata?: unknown;
}

export interface ServerTeamCreateOptions extends TeamCreateOptions {
  creatorUserId?: string;
}

/** A member seen by server code: the whole server user plus its team profile. */
export type ServerTeamUser = ServerUser & TeamUser;

export interface ServerTeam extends Team {
  readonly createdAt: Date;
  readonly serverMetadata: unknown;
  listUsers(): Promise<ServerTeamUser[]>;
  update(options: ServerTeamUpdateOptions): Promise<void>;
  addUser(userId: string): Promise<void>;
  removeUser(userId: string): Promise<void>;
  /** The team as a customer with server access (sdk-surface.md §15 server Customer): items.ts. */
  getItem(itemId: string): Promise<ServerItem>;
  createCheckoutUrl(options: ServerCheckoutOptions): Promise<string>;
}

export interface ServerListTeamsOptions {
  orderBy?: "createdAt";
  desc?: boolean;
  cursor?: string;
  limit?: number;
  query?: string;
}

const profileList = listEnvelope(serverTeamMemberProfile);
const membershipPath = (teamId: string, userId: string) => `/team-memberships/${encodeURIComponent(teamId)}/${encodeURIComponent(userId)}`;

export function serverTeamFromJson(ctx: AppContext, json: ServerTeamJson): ServerTeam {
  return {
    ...teamFromJson(json),
    ...teamCalls(ctx, {}, json.id),
    ...serverCustomerMethods(ctx, { type: "team", id: json.id }),
    createdAt: new Date(json.created_at_millis),
    serverMetadata: json.server_metadata ?? null,
    async listUsers() {
      const page = await ctx.transport.requestJson("/team-member-profiles", { query: { team_id: json.id } }, profileList);
      return page.items.map((p) => ({
        ...serverUserFromJson(ctx, p.user),
        teamProfile: { displayName: p.display_name, profileImageUrl: p.profile_image_url },
      }));
    },
    async update(options) {
      await ctx.transport.requestJson(teamPath(json.id), { method: "PATCH", body: teamUpdateToWire(options) }, serverTeam);
    },
    async addUser(userId) {
      await ctx.transport.request(membershipPath(json.id, userId), { method: "POST", body: {} });
    },
    async removeUser(userId) {
      await ctx.transport.request(membershipPath(json.id, userId), { method: "DELETE", body: {} });
    },
  };
}

export async function createServerTeam(ctx: AppContext, options: ServerTeamCreateOptions): Promise<ServerTeam> {
  const body = { display_name: options.displayName, profile_image_url: options.profileImageUrl, creator_user_id: options.creatorUserId };
  return serverTeamFromJson(ctx, await ctx.transport.requestJson("/teams", { method: "POST", body }, serverTeam));
}

/** TEAM_NOT_FOUND becomes null, as USER_NOT_FOUND does for users. */
export async function getServerTeam(ctx: AppContext, teamId: string): Promise<ServerTeam | null> {
  try {
    return serverTeamFromJson(ctx, await ctx.transport.requestJson(teamPath(teamId), {}, serverTeam));
  } catch (e) {
    if (isKnownErrorOfType(e, "TEAM_NOT_FOUND")) return null;
    throw e;
  }
}

const teamList = teamListEnvelope(serverTeam);

/** GET /teams (optionally a user's): a "+cursor list" like listUsers. */
export async function listServerTeams(ctx: AppContext, options: ServerListTeamsOptions & { userId?: string } = {}): Promise<CursorList<ServerTeam>> {
  const query: { [K in keyof TeamListQuery]?: string | number } = {
    user_id: options.userId,
    order_by: options.orderBy === "createdAt" ? "created_at" : undefined,
    desc: options.desc === undefined ? undefined : String(options.desc),
    cursor: options.cursor,
    limit: options.limit,
    query: options.query,
  };
  const page = await ctx.transport.requestJson("/teams", { query }, teamList);
  return Object.assign(
    page.items.map((json) => serverTeamFromJson(ctx, json)),
    { nextCursor: page.pagination?.next_cursor ?? null },
  );
}

const permissionList = listEnvelope(teamPermission);

/**
 * Every member's permissions in a team in one call (sdk-surface.md §7). Direct grants unless `recursive` is true, as
 * the reference SDK defaults it to false here.
 */
export async function listTeamMemberPermissions(
  ctx: AppContext,
  teamId: string,
  options: { recursive?: boolean } = {},
): Promise<{ userId: string; permissionId: string }[]> {
  const query = { team_id: teamId, recursive: String(options.recursive ?? false) };
  const page = await ctx.transport.requestJson("/team-permissions", { query }, permissionList);
  return page.items.map((p) => ({ userId: p.user_id, permissionId: p.id }));
}

export interface ServerUserTeams extends UserTeams<ServerTeam> {
  listTeams(options?: ServerListTeamsOptions): Promise<CursorList<ServerTeam>>;
}

/** A server user's team members: as the client's, with the user's id and the server key (sdk-surface.md §9b, §9c). */
export function serverUserTeams(
  ctx: AppContext,
  userId: string,
  selected: ServerTeamJson | null,
  setSelectedTeamId: (teamId: string | null) => Promise<void>,
): ServerUserTeams {
  const base = userTeamMethods(
    ctx,
    { userId, auth: {}, setSelectedTeamId },
    { schema: serverTeam, build: (json) => serverTeamFromJson(ctx, json), createBody: { creator_user_id: userId } },
    selected,
  );
  return { ...base, listTeams: (options) => listServerTeams(ctx, { ...options, userId }) };
}
