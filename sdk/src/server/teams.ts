import { isKnownErrorOfType } from "../errors/known-error.ts";
import type { AppContext } from "../client/app-context.ts";
import type { TeamCreateOptions } from "../client/teams.ts";
import { serverTeamFromJson, type ServerTeam } from "./server-user.ts";

export {
  listServerTeams,
  serverTeamFromJson,
  serverUserTeams,
  type ServerListTeamsOptions,
  type ServerTeam,
  type ServerTeamUpdateOptions,
  type ServerTeamUser,
  type ServerUserTeams,
} from "./server-user.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * Teams with server access (sdk-surface.md §7, §12): creation, lookup and the members' permissions. The server team
 * view itself (serverTeamFromJson, listing) is in server-user.ts, with the server user: each holds the other (a user's
 * teams, a team's users), so they are one module rather than two that import each other.
 */

export interface ServerTeamCreateOptions extends TeamCreateOptions {
  creatorUserId?: string;
}

export async function createServerTeam(ctx: AppContext, options: ServerTeamCreateOptions): Promise<ServerTeam> {
  const body = {
    display_name: options.displayName,
    profile_image_url: options.profileImageUrl,
    creator_user_id: options.creatorUserId,
  };
  return serverTeamFromJson(ctx, await asServer.json(ctx.transport, "createTeam", { body }));
}

/** TEAM_NOT_FOUND becomes null, as USER_NOT_FOUND does for users. */
export async function getServerTeam(ctx: AppContext, teamId: string): Promise<ServerTeam | null> {
  try {
    return serverTeamFromJson(ctx, await asServer.json(ctx.transport, "getTeam", { params: { team_id: teamId } }));
  } catch (e) {
    if (isKnownErrorOfType(e, "TEAM_NOT_FOUND")) return null;
    throw e;
  }
}

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
  const page = await asServer.json(ctx.transport, "listTeamPermissions", { query });
  return page.items.map((p) => ({ userId: p.user_id, permissionId: p.id }));
}
