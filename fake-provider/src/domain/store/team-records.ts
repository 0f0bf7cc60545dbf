/**
 * Records of the teams-and-permissions area (spec §3, §6; protocol.md §5.4). Values, like every record: replaced, never
 * mutated. Teams and memberships themselves are in records.ts; invitations are verification codes of purpose
 * "team_invitation" (as upstream stores them), so they need no table of their own.
 */

export type PermissionScope = "team" | "project";

/** A custom permission definition. Keyed `${projectId}:${id}`: ids are unique across both scopes of a project. */
export interface PermissionDefinitionRecord {
  projectId: string;
  id: string;
  scope: PermissionScope;
  description: string | null;
  containedPermissionIds: string[];
  createdAtMillis: number;
}

/** A permission granted directly to a team member. Keyed `${teamId}:${userId}:${permissionId}`. */
export interface TeamPermissionGrantRecord {
  projectId: string;
  teamId: string;
  userId: string;
  permissionId: string;
  /** When it was granted (the synced tables' created_at); absent in state saved before grants kept their time. */
  createdAtMillis?: number;
}

/** A project permission granted directly to a user. Keyed `${userId}:${permissionId}`. */
export interface ProjectPermissionGrantRecord {
  projectId: string;
  userId: string;
  permissionId: string;
  /** As TeamPermissionGrantRecord's. */
  createdAtMillis?: number;
}

/**
 * A member's own name and picture within one team, keyed like the membership (`${teamId}:${userId}`). Absent or null
 * fields fall back to the user's (protocol.md §5.4 member profile).
 */
export interface TeamMemberProfileRecord {
  projectId: string;
  teamId: string;
  userId: string;
  displayName: string | null;
  profileImageUrl: string | null;
}

export const membershipKey = (teamId: string, userId: string) => `${teamId}:${userId}`;
export const definitionKey = (projectId: string, permissionId: string) => `${projectId}:${permissionId}`;
export const teamGrantKey = (teamId: string, userId: string, permissionId: string) =>
  `${teamId}:${userId}:${permissionId}`;
export const projectGrantKey = (userId: string, permissionId: string) => `${userId}:${permissionId}`;
