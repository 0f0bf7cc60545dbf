import {
  permissionDefinition,
  permissionDefinitionList,
  type PermissionDefinitionJson,
  type PermissionScope,
} from "../contract/areas/permissions.ts";
import type { AppContext } from "../client/app-context.ts";
import { asServer } from "../transport/operation-call.ts";
import type { OperationId } from "../contract/operations.ts";

/**
 * Permission definitions, team and project scope (spec §6 "Admins manage permission definitions"; sdk-surface.md §8,
 * §14; protocol.md §5.4): CRUD on /team-permission-definitions and /project-permission-definitions.
 */

export interface AdminPermissionDefinition {
  readonly id: string;
  readonly description?: string;
  readonly containedPermissionIds: string[];
}
export type AdminTeamPermissionDefinition = AdminPermissionDefinition;
export type AdminProjectPermissionDefinition = AdminPermissionDefinition;

export interface AdminPermissionDefinitionCreateOptions {
  id: string;
  description?: string;
  /** Optional on the wire (the published SDK may send none); empty when left out. */
  containedPermissionIds?: string[];
}
export type AdminTeamPermissionDefinitionCreateOptions = AdminPermissionDefinitionCreateOptions;
export type AdminProjectPermissionDefinitionCreateOptions = AdminPermissionDefinitionCreateOptions;

export interface AdminPermissionDefinitionUpdateOptions {
  description?: string;
  containedPermissionIds?: string[];
}
export type AdminTeamPermissionDefinitionUpdateOptions = AdminPermissionDefinitionUpdateOptions;
export type AdminProjectPermissionDefinitionUpdateOptions = AdminPermissionDefinitionUpdateOptions;

/** AdminTeamPermission / AdminProjectPermission: what creating a definition returns (sdk-surface.md §14). */
export interface AdminPermission {
  readonly id: string;
}

/** The contract's operations of each scope's definitions (…/team-permission-definitions, …/project-permission-definitions). */
const ops = {
  team: {
    list: "listTeamPermissionDefinitions",
    create: "createTeamPermissionDefinition",
    update: "updateTeamPermissionDefinition",
    remove: "deleteTeamPermissionDefinition",
  },
  project: {
    list: "listProjectPermissionDefinitions",
    create: "createProjectPermissionDefinition",
    update: "updateProjectPermissionDefinition",
    remove: "deleteProjectPermissionDefinition",
  },
} as const satisfies Record<PermissionScope, Record<string, OperationId>>;

function definitionFromJson(json: PermissionDefinitionJson): AdminPermissionDefinition {
  return {
    id: json.id,
    ...(json.description !== undefined ? { description: json.description } : {}),
    containedPermissionIds: [...json.contained_permission_ids],
  };
}

export async function listDefinitions(ctx: AppContext, scope: PermissionScope): Promise<AdminPermissionDefinition[]> {
  return (await asServer.jsonAs(ctx.transport, ops[scope].list, {}, permissionDefinitionList)).items.map(
    definitionFromJson,
  );
}

/** The paginated listing of sdk-surface.md §8 (team scope in the reference SDK). */
export async function listDefinitionsPaginated(
  ctx: AppContext,
  scope: PermissionScope,
  options: { limit: number; cursor?: string; query?: string },
): Promise<{ items: AdminPermissionDefinition[]; nextCursor: string | null }> {
  const page = await asServer.jsonAs(
    ctx.transport,
    ops[scope].list,
    { query: { ...options } },
    permissionDefinitionList,
  );
  return { items: page.items.map(definitionFromJson), nextCursor: page.pagination?.next_cursor ?? null };
}

export async function createDefinition(
  ctx: AppContext,
  scope: PermissionScope,
  options: AdminPermissionDefinitionCreateOptions,
): Promise<AdminPermission> {
  const body = {
    id: options.id,
    description: options.description,
    contained_permission_ids: options.containedPermissionIds,
  };
  const json = await asServer.jsonAs(ctx.transport, ops[scope].create, { body }, permissionDefinition);
  return { id: json.id };
}

export async function updateDefinition(
  ctx: AppContext,
  scope: PermissionScope,
  permissionId: string,
  options: AdminPermissionDefinitionUpdateOptions,
): Promise<void> {
  const body = { description: options.description, contained_permission_ids: options.containedPermissionIds };
  await asServer.jsonAs(
    ctx.transport,
    ops[scope].update,
    { params: { permission_id: permissionId }, body },
    permissionDefinition,
  );
}

export async function deleteDefinition(ctx: AppContext, scope: PermissionScope, permissionId: string): Promise<void> {
  await asServer.send(ctx.transport, ops[scope].remove, { params: { permission_id: permissionId } });
}
