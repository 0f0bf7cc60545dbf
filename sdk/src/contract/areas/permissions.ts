import { z } from "zod";
import { listEnvelope, queryBoolean, userIdOrMe, uuidV4 } from "./common.ts";
import { created, defineOperations, json, success } from "../define-operations.ts";

/** Permissions: definitions (admin), grants (server) and listings (protocol.md §5.4; spec §6). */

/** Custom permission ids (protocol.md §5.4). System ids start with `$` and cannot be created. */
export const customPermissionId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[a-z0-9_:]+$/, "must match ^[a-z0-9_:]+$");
/** Any permission id a grant or a containment may name: a custom id or a system one such as `$update_team`. */
export const anyPermissionId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^\$?[a-z0-9_:]+$/, "must match ^\\$?[a-z0-9_:]+$");

/** The complete list of system permissions (team scope), protocol.md §5.4. */
export const systemPermissionIds = [
  "$update_team",
  "$delete_team",
  "$read_members",
  "$remove_members",
  "$invite_members",
  "$manage_api_keys",
] as const;
export type SystemPermissionId = (typeof systemPermissionIds)[number];

export type PermissionScope = "team" | "project";

export const permissionDefinition = z.object({
  id: anyPermissionId,
  description: z.string().optional(),
  contained_permission_ids: z.array(z.string()),
});
export type PermissionDefinitionJson = z.infer<typeof permissionDefinition>;

/** POST /{team,project}-permission-definitions. The published SDK sends `description` (wire capture #11). */
export const permissionDefinitionCreate = z.strictObject({
  id: customPermissionId,
  description: z.string().max(1024).optional(),
  contained_permission_ids: z.array(anyPermissionId).optional(),
});
/** PATCH …/{permission_id}: `id` renames the definition (protocol.md §5.4). */
export const permissionDefinitionUpdate = z.strictObject({
  id: customPermissionId.optional(),
  description: z.string().max(1024).optional(),
  contained_permission_ids: z.array(anyPermissionId).optional(),
});
export type PermissionDefinitionCreate = z.infer<typeof permissionDefinitionCreate>;
export type PermissionDefinitionUpdate = z.infer<typeof permissionDefinitionUpdate>;

/** Only custom definitions can be changed or deleted, so a `$` id in the path is a schema error. */
export const permissionDefinitionParams = z.strictObject({ permission_id: customPermissionId });
/** The published admin SDK's paginated listing sends limit, cursor and query. */
export const permissionDefinitionListQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().optional(),
  query: z.string().max(256).optional(),
});
export const permissionDefinitionList = z.object({
  items: z.array(permissionDefinition),
  is_paginated: z.boolean(),
  pagination: z.object({ next_cursor: z.string().nullable() }).optional(),
});

/** A granted permission (protocol.md §5.4). */
export const teamPermission = z.object({ id: anyPermissionId, user_id: uuidV4, team_id: uuidV4 });
export const projectPermission = z.object({ id: anyPermissionId, user_id: uuidV4 });
export type TeamPermissionJson = z.infer<typeof teamPermission>;
export type ProjectPermissionJson = z.infer<typeof projectPermission>;

/** GET /team-permissions: `recursive` defaults to true (spec §9). A client must pass `user_id=me`. */
export const teamPermissionListQuery = z.strictObject({
  team_id: uuidV4.optional(),
  user_id: userIdOrMe.optional(),
  permission_id: anyPermissionId.optional(),
  recursive: queryBoolean.optional(),
});
export const projectPermissionListQuery = z.strictObject({
  user_id: userIdOrMe.optional(),
  permission_id: anyPermissionId.optional(),
  recursive: queryBoolean.optional(),
});
export type TeamPermissionListQuery = z.infer<typeof teamPermissionListQuery>;
export type ProjectPermissionListQuery = z.infer<typeof projectPermissionListQuery>;

export const teamPermissionGrantParams = z.strictObject({
  team_id: uuidV4,
  user_id: userIdOrMe,
  permission_id: anyPermissionId,
});
export const projectPermissionGrantParams = z.strictObject({ user_id: userIdOrMe, permission_id: anyPermissionId });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const permissionsOperations = defineOperations("permissions", {
  listTeamPermissions: {
    method: "GET",
    path: "/team-permissions",
    access: "client",
    query: teamPermissionListQuery,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_NOT_FOUND"],
    responses: [json(listEnvelope(teamPermission))],
  },
  grantTeamPermission: {
    method: "POST",
    path: "/team-permissions/:team_id/:user_id/:permission_id",
    access: "server",
    params: teamPermissionGrantParams,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "PERMISSION_NOT_FOUND",
      "TEAM_MEMBERSHIP_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "USER_NOT_FOUND",
      "WRONG_PERMISSION_SCOPE",
    ],
    responses: [created(teamPermission)],
  },
  revokeTeamPermission: {
    method: "DELETE",
    path: "/team-permissions/:team_id/:user_id/:permission_id",
    access: "server",
    params: teamPermissionGrantParams,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "PERMISSION_NOT_FOUND",
      "TEAM_NOT_FOUND",
      "TEAM_PERMISSION_NOT_FOUND",
      "USER_NOT_FOUND",
      "WRONG_PERMISSION_SCOPE",
    ],
    responses: [success],
  },
  listProjectPermissions: {
    method: "GET",
    path: "/project-permissions",
    access: "client",
    query: projectPermissionListQuery,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"],
    responses: [json(listEnvelope(projectPermission))],
  },
  grantProjectPermission: {
    method: "POST",
    path: "/project-permissions/:user_id/:permission_id",
    access: "server",
    params: projectPermissionGrantParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "PERMISSION_NOT_FOUND", "USER_NOT_FOUND", "WRONG_PERMISSION_SCOPE"],
    responses: [created(projectPermission)],
  },
  revokeProjectPermission: {
    method: "DELETE",
    path: "/project-permissions/:user_id/:permission_id",
    access: "server",
    params: projectPermissionGrantParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "PERMISSION_NOT_FOUND", "USER_NOT_FOUND", "WRONG_PERMISSION_SCOPE"],
    responses: [success],
  },
  listTeamPermissionDefinitions: {
    method: "GET",
    path: "/team-permission-definitions",
    access: "admin",
    query: permissionDefinitionListQuery,
    errors: [],
    responses: [json(permissionDefinitionList)],
  },
  createTeamPermissionDefinition: {
    method: "POST",
    path: "/team-permission-definitions",
    access: "admin",
    body: permissionDefinitionCreate,
    errors: [],
    responses: [created(permissionDefinition)],
  },
  updateTeamPermissionDefinition: {
    method: "PATCH",
    path: "/team-permission-definitions/:permission_id",
    access: "admin",
    params: permissionDefinitionParams,
    body: permissionDefinitionUpdate,
    errors: [],
    responses: [json(permissionDefinition)],
  },
  deleteTeamPermissionDefinition: {
    method: "DELETE",
    path: "/team-permission-definitions/:permission_id",
    access: "admin",
    params: permissionDefinitionParams,
    errors: [],
    responses: [success],
  },
  listProjectPermissionDefinitions: {
    method: "GET",
    path: "/project-permission-definitions",
    access: "admin",
    query: permissionDefinitionListQuery,
    errors: [],
    responses: [json(permissionDefinitionList)],
  },
  createProjectPermissionDefinition: {
    method: "POST",
    path: "/project-permission-definitions",
    access: "admin",
    body: permissionDefinitionCreate,
    errors: [],
    responses: [created(permissionDefinition)],
  },
  updateProjectPermissionDefinition: {
    method: "PATCH",
    path: "/project-permission-definitions/:permission_id",
    access: "admin",
    params: permissionDefinitionParams,
    body: permissionDefinitionUpdate,
    errors: [],
    responses: [json(permissionDefinition)],
  },
  deleteProjectPermissionDefinition: {
    method: "DELETE",
    path: "/project-permission-definitions/:permission_id",
    access: "admin",
    params: permissionDefinitionParams,
    errors: [],
    responses: [success],
  },
});
