import type { AppContext } from "../client/app-context.ts";
import { userPermissionMethods, type UserPermissions } from "../client/permissions.ts";
import type { TeamRef } from "../client/user-teams.ts";

/**
 * A server user's permissions (sdk-surface.md §9c): the client's readers with the user's id, plus grant and revoke,
 * per team member (`(team, id)`) or per project user (`(id)`).
 */
export interface ServerUserPermissions extends UserPermissions {
  grantPermission(team: TeamRef, permissionId: string): Promise<void>;
  grantPermission(permissionId: string): Promise<void>;
  revokePermission(team: TeamRef, permissionId: string): Promise<void>;
  revokePermission(permissionId: string): Promise<void>;
}

const enc = encodeURIComponent;

export function serverUserPermissionMethods(ctx: AppContext, userId: string): ServerUserPermissions {
  const path = (a: TeamRef | string, b?: string) =>
    typeof a === "string" ? `/project-permissions/${enc(userId)}/${enc(a)}` : `/team-permissions/${enc(a.id)}/${enc(userId)}/${enc(String(b))}`;
  const methods: ServerUserPermissions = {
    ...userPermissionMethods(ctx, userId, {}),
    grantPermission: async (a: TeamRef | string, b?: string) => {
      await ctx.transport.request(path(a, b), { method: "POST", body: {} });
    },
    revokePermission: async (a: TeamRef | string, b?: string) => {
      await ctx.transport.request(path(a, b), { method: "DELETE", body: {} });
    },
  };
  return methods;
}
