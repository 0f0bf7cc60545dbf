import { z } from "zod";
import { byAccess, imageUrl, listEnvelope, userIdOrMe, uuidV4 } from "./common.ts";
import { serverUser } from "./users.ts";
import { created, defineOperations, success, view } from "../define-operations.ts";

/**
 * Team memberships and member profiles (protocol.md §5.4, §6.4). Apart from teams.ts because the server profile view
 * embeds the server user, whose view embeds the team (users.ts imports teams.ts).
 */

/** POST /team-memberships/{team_id}/{user_id} (server) and DELETE …/{user_id|me}. */
export const teamMembershipParams = z.strictObject({ team_id: uuidV4, user_id: userIdOrMe });
export const teamMembership = z.object({ team_id: uuidV4, user_id: uuidV4 });
export type TeamMembershipJson = z.infer<typeof teamMembership>;

export const clientTeamMemberProfile = z.object({
  team_id: uuidV4,
  user_id: uuidV4,
  display_name: z.string().nullable(),
  profile_image_url: z.string().nullable(),
});
/** The server view adds the member's full server user. */
export const serverTeamMemberProfile = clientTeamMemberProfile.extend({ user: serverUser });
export const teamMemberProfileView = byAccess(clientTeamMemberProfile, serverTeamMemberProfile);
export const teamMemberProfileListView = byAccess(
  listEnvelope(clientTeamMemberProfile),
  listEnvelope(serverTeamMemberProfile),
);
export type ClientTeamMemberProfileJson = z.infer<typeof clientTeamMemberProfile>;
export type ServerTeamMemberProfileJson = z.infer<typeof serverTeamMemberProfile>;

/** GET /team-member-profiles?team_id=&user_id= (a client must name a team). */
export const teamMemberProfileListQuery = z.strictObject({
  team_id: uuidV4.optional(),
  user_id: userIdOrMe.optional(),
});
export const teamMemberProfileParams = z.strictObject({ team_id: uuidV4, user_id: userIdOrMe });
export const teamMemberProfileUpdate = z.strictObject({
  display_name: z.string().max(256).nullable().optional(),
  profile_image_url: imageUrl.nullable().optional(),
});
export type TeamMemberProfileUpdate = z.infer<typeof teamMemberProfileUpdate>;

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const teamMembersOperations = defineOperations("team-members", {
  addTeamMember: {
    method: "POST",
    path: "/team-memberships/:team_id/:user_id",
    access: "server",
    params: teamMembershipParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "TEAM_NOT_FOUND", "USER_NOT_FOUND"],
    responses: [created(teamMembership)],
  },
  removeTeamMember: {
    method: "DELETE",
    path: "/team-memberships/:team_id/:user_id",
    access: "client",
    params: teamMembershipParams,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "TEAM_PERMISSION_REQUIRED",
      "USER_AUTHENTICATION_REQUIRED",
      "USER_NOT_FOUND",
    ],
    responses: [success],
  },
  listTeamMemberProfiles: {
    method: "GET",
    path: "/team-member-profiles",
    access: "client",
    query: teamMemberProfileListQuery,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "TEAM_PERMISSION_REQUIRED",
      "USER_AUTHENTICATION_REQUIRED",
    ],
    responses: [view(teamMemberProfileListView)],
  },
  getTeamMemberProfile: {
    method: "GET",
    path: "/team-member-profiles/:team_id/:user_id",
    access: "client",
    params: teamMemberProfileParams,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "TEAM_PERMISSION_REQUIRED",
      "USER_AUTHENTICATION_REQUIRED",
    ],
    responses: [view(teamMemberProfileView)],
  },
  updateTeamMemberProfile: {
    method: "PATCH",
    path: "/team-member-profiles/:team_id/:user_id",
    access: "client",
    params: teamMemberProfileParams,
    body: teamMemberProfileUpdate,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "USER_AUTHENTICATION_REQUIRED",
    ],
    responses: [view(teamMemberProfileView)],
  },
});
