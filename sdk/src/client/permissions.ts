import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";
import type { TeamRef } from "./user-teams.ts";

/**
 * A user's permissions (spec §6; sdk-surface.md §9b, §14): listed per team or for the project, recursively by default
 * (spec §9); "has permission" means the id is in that list.
 */

/** TeamPermission / ProjectPermission (and the admin variants): just the id. */
export interface Permission {
  readonly id: string;
}
export type TeamPermission = Permission;
export type ProjectPermission = Permission;

export interface PermissionListOptions {
  /** Expand contained permissions; default true (spec §9). */
  recursive?: boolean;
}

export interface UserPermissions {
  listPermissions(team: TeamRef, options?: PermissionListOptions): Promise<TeamPermission[]>;
  listPermissions(options?: PermissionListOptions): Promise<ProjectPermission[]>;
  getPermission(team: TeamRef, permissionId: string, options?: PermissionListOptions): Promise<TeamPermission | null>;
  getPermission(permissionId: string, options?: PermissionListOptions): Promise<ProjectPermission | null>;
  hasPermission(team: TeamRef, permissionId: string): Promise<boolean>;
  hasPermission(permissionId: string): Promise<boolean>;
}

const isTeam = (value: unknown): value is TeamRef => typeof value === "object" && value !== null && "id" in value;

/** `userId` is "me" for a client (with its session in `auth`), the user's id for server access. */
export function userPermissionMethods(ctx: AppContext, userId: string, auth: CallAuth): UserPermissions {
  async function list(team: TeamRef | null, options: PermissionListOptions = {}): Promise<Permission[]> {
    const recursive = String(options.recursive ?? true);
    const page = team
      ? await asClient.json(ctx.transport, "listTeamPermissions", {
          ...auth,
          query: { team_id: team.id, user_id: userId, recursive },
        })
      : await asClient.json(ctx.transport, "listProjectPermissions", {
          ...auth,
          query: { user_id: userId, recursive },
        });
    return page.items.map((p) => ({ id: p.id }));
  }
  async function get(
    a: TeamRef | string,
    b?: string | PermissionListOptions,
    c?: PermissionListOptions,
  ): Promise<Permission | null> {
    const [team, id, options] = isTeam(a) ? [a, String(b), c] : [null, a, typeof b === "object" ? b : undefined];
    return (await list(team, options)).find((p) => p.id === id) ?? null;
  }
  const methods: UserPermissions = {
    listPermissions: (a?: TeamRef | PermissionListOptions, b?: PermissionListOptions) =>
      isTeam(a) ? list(a, b) : list(null, a),
    getPermission: get,
    hasPermission: async (a: TeamRef | string, b?: string) => (await get(a, b)) !== null,
  };
  return methods;
}
