import type { AppContext } from "../client/app-context.ts";
import { userPermissionMethods, type UserPermissions } from "../client/permissions.ts";
import type { TeamRef } from "../client/user-teams.ts";
import { asServer } from "../transport/operation-call.ts";

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

export function serverUserPermissionMethods(ctx: AppContext, userId: string): ServerUserPermissions {
  const methods: ServerUserPermissions = {
    ...userPermissionMethods(ctx, userId, {}),
    grantPermission: async (a: TeamRef | string, b?: string) => {
      await (typeof a === "string"
        ? asServer.send(ctx.transport, "grantProjectPermission", {
            params: { user_id: userId, permission_id: a },
            body: {},
          })
        : asServer.send(ctx.transport, "grantTeamPermission", {
            params: { team_id: a.id, user_id: userId, permission_id: String(b) },
            body: {},
          }));
    },
    revokePermission: async (a: TeamRef | string, b?: string) => {
      await (typeof a === "string"
        ? asServer.send(ctx.transport, "revokeProjectPermission", {
            params: { user_id: userId, permission_id: a },
            body: {},
          })
        : asServer.send(ctx.transport, "revokeTeamPermission", {
            params: { team_id: a.id, user_id: userId, permission_id: String(b) },
            body: {},
          }));
    },
  };
  return methods;
}
