import type { PermissionDefinitionJson, ProjectPermissionJson, TeamPermissionJson } from "@authsim/sdk/contract";
import type { GrantedProjectPermission, GrantedTeamPermission } from "../ops/teams/permission-grants.ts";
import type { PermissionDefinitionRecord } from "../store/team-records.ts";

/** Permission definitions and granted permissions on the wire (protocol.md §5.4). */

export function definitionView(definition: PermissionDefinitionRecord): PermissionDefinitionJson {
  return {
    id: definition.id,
    ...(definition.description !== null ? { description: definition.description } : {}),
    // Sorted, as upstream answers them.
    contained_permission_ids: [...definition.containedPermissionIds].sort(),
  };
}

export function teamPermissionView(permission: GrantedTeamPermission): TeamPermissionJson {
  return { id: permission.id, user_id: permission.userId, team_id: permission.teamId };
}

export function projectPermissionView(permission: GrantedProjectPermission): ProjectPermissionJson {
  return { id: permission.id, user_id: permission.userId };
}
