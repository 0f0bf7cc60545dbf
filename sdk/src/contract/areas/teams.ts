import { z } from "zod";
import { byAccess, imageUrl, metadata, millis, queryBoolean, userIdOrMe, uuidV4 } from "./common.ts";
import { byCaller, defineOperations, success, view } from "../define-operations.ts";

/** Teams (spec §3, protocol.md §5.3, §6.4). Memberships and member profiles are in team-members.ts. */
export const clientTeam = z.object({
  id: uuidV4,
  display_name: z.string(),
  profile_image_url: z.string().nullable(),
  client_metadata: metadata.optional(),
  client_read_only_metadata: metadata.optional(),
});
export const serverTeam = clientTeam.extend({
  created_at_millis: millis,
  server_metadata: metadata.optional(),
});
/** What GET/POST/PATCH /teams… answer: the caller's view. */
export const teamView = byAccess(clientTeam, serverTeam);
export type ClientTeamJson = z.infer<typeof clientTeam>;
export type ServerTeamJson = z.infer<typeof serverTeam>;

/** Any string, the empty one included (upstream's team display name has no lower bound). */
const displayName = z.string().max(256);
const profileImageUrl = imageUrl.nullable();

export const teamParams = z.strictObject({ team_id: uuidV4 });
/** DELETE /teams/{id}: upstream accepts and ignores any body (the published SDK sends `{}`; some callers the team). */
export const teamDeleteBody = z.unknown();

/** POST /teams with client access: the creator may only be the caller (`me` or their own id). */
export const clientTeamCreate = z.strictObject({
  display_name: displayName,
  profile_image_url: profileImageUrl.optional(),
  client_metadata: metadata.optional(),
  creator_user_id: userIdOrMe.optional(),
});
/** POST /teams with server or admin access adds the read-only and server metadata. */
export const serverTeamCreate = clientTeamCreate.extend({
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
});
export type ServerTeamCreate = z.infer<typeof serverTeamCreate>;

export const clientTeamUpdate = z.strictObject({
  display_name: displayName.optional(),
  profile_image_url: profileImageUrl.optional(),
  client_metadata: metadata.optional(),
});
export const serverTeamUpdate = clientTeamUpdate.extend({
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
});
export type ServerTeamUpdate = z.infer<typeof serverTeamUpdate>;

/**
 * GET /teams. A client must pass `user_id=me` (protocol.md §5.3); the published server SDK also sends order_by, desc,
 * cursor, limit and query (its listServerTeamsPaginated).
 */
export const teamListQuery = z.strictObject({
  user_id: userIdOrMe.optional(),
  order_by: z.literal("created_at").optional(),
  desc: queryBoolean.optional(),
  cursor: uuidV4.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  query: z.string().max(256).optional(),
});
export type TeamListQuery = z.infer<typeof teamListQuery>;

/**
 * A team list: unpaginated (`is_paginated: false`, A26) unless a `limit` was asked for, then with the cursor of the
 * next page (the published SDK reads `pagination?.next_cursor`).
 */
export function teamListEnvelope<T extends z.ZodType>(item: T) {
  return z.object({
    items: z.array(item),
    is_paginated: z.boolean(),
    pagination: z.object({ next_cursor: uuidV4.nullable() }).optional(),
  });
}

export const teamListView = byAccess(teamListEnvelope(clientTeam), teamListEnvelope(serverTeam));

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const teamsOperations = defineOperations("teams", {
  listTeams: {
    method: "GET",
    path: "/teams",
    access: "client",
    query: teamListQuery,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE"],
    responses: [view(teamListView)],
  },
  createTeam: {
    method: "POST",
    path: "/teams",
    access: "client",
    body: byCaller(clientTeamCreate, serverTeamCreate),
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "INSUFFICIENT_ACCESS_TYPE",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_AUTHENTICATION_REQUIRED",
      "USER_NOT_FOUND",
    ],
    responses: [view(teamView, 201)],
  },
  getTeam: {
    method: "GET",
    path: "/teams/:team_id",
    access: "client",
    params: teamParams,
    errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [view(teamView)],
  },
  updateTeam: {
    method: "PATCH",
    path: "/teams/:team_id",
    access: "client",
    params: teamParams,
    body: byCaller(clientTeamUpdate, serverTeamUpdate),
    errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [view(teamView)],
  },
  deleteTeam: {
    method: "DELETE",
    path: "/teams/:team_id",
    access: "client",
    params: teamParams,
    body: teamDeleteBody,
    errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [success],
  },
});
