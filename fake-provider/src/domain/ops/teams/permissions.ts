import {
  systemPermissionIds,
  type PermissionDefinitionCreate,
  type PermissionDefinitionUpdate,
} from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectConfigRecord } from "../../store/records.ts";
import {
  definitionKey,
  projectGrantKey,
  teamGrantKey,
  type PermissionDefinitionRecord,
  type PermissionScope,
} from "../../store/team-records.ts";
import type { OpContext } from "../context.ts";

/**
 * Permission definitions (spec §6; protocol.md §5.4): custom definitions per project in two scopes, plus the built-in
 * system permissions of team scope. A definition may contain others, in the same scope, with cycles allowed: the
 * recursive listing (permission-grants.ts) follows them with a visited set.
 */

/** The system permissions: always defined, team scope, contain nothing, cannot be changed or deleted. */
const SYSTEM_DESCRIPTIONS: Record<(typeof systemPermissionIds)[number], string> = {
  $update_team: "Update the team information",
  $delete_team: "Delete the team",
  $read_members: "Read and list the other members of the team",
  $remove_members: "Remove other members from the team",
  $invite_members: "Invite other users to the team",
  $manage_api_keys: "Create and manage API keys for the team",
};

export const isSystemPermission = (id: string): boolean => (systemPermissionIds as readonly string[]).includes(id);

function systemDefinition(projectId: string, id: (typeof systemPermissionIds)[number]): PermissionDefinitionRecord {
  return {
    projectId,
    id,
    scope: "team",
    description: SYSTEM_DESCRIPTIONS[id],
    containedPermissionIds: [],
    createdAtMillis: 0,
  };
}

/** Upstream seeds every project with these two, the creator and member defaults (domain/ops/projects/projects.ts defaults). */
export function seedPermissionDefinitions(ctx: OpContext, projectId: string): void {
  const seeds: Omit<PermissionDefinitionRecord, "projectId" | "createdAtMillis">[] = [
    {
      id: "team_admin",
      scope: "team",
      description: "Default permission for team admins",
      containedPermissionIds: [...systemPermissionIds],
    },
    {
      id: "team_member",
      scope: "team",
      description: "Default permission for team members",
      containedPermissionIds: ["$read_members", "$invite_members"],
    },
  ];
  for (const seed of seeds)
    ctx.tables.permissionDefinitions.set(definitionKey(projectId, seed.id), {
      ...seed,
      projectId,
      createdAtMillis: ctx.now,
    });
}

/** A definition of any scope, the system ones included. */
export function findDefinition(ctx: OpContext, projectId: string, id: string): PermissionDefinitionRecord | undefined {
  if (isSystemPermission(id)) return systemDefinition(projectId, id as (typeof systemPermissionIds)[number]);
  return ctx.tables.permissionDefinitions.get(definitionKey(projectId, id));
}

/** PERMISSION_NOT_FOUND, or WRONG_PERMISSION_SCOPE when the id is defined in the other scope. */
export function requireDefinition(
  ctx: OpContext,
  projectId: string,
  scope: PermissionScope,
  id: string,
): PermissionDefinitionRecord {
  const found = findDefinition(ctx, projectId, id);
  if (!found) throw knownError("PERMISSION_NOT_FOUND", { permission_id: id });
  if (found.scope !== scope)
    throw knownError("WRONG_PERMISSION_SCOPE", { permission_id: id, expected_scope: scope, actual_scope: found.scope });
  return found;
}

/** Every definition of a scope, system ones first (`$` sorts before letters), then by id. */
export function listDefinitions(
  ctx: OpContext,
  projectId: string,
  scope: PermissionScope,
): PermissionDefinitionRecord[] {
  const custom = [...ctx.tables.permissionDefinitions.values()].filter(
    (d) => d.projectId === projectId && d.scope === scope,
  );
  const system = scope === "team" ? systemPermissionIds.map((id) => systemDefinition(projectId, id)) : [];
  return [...system, ...custom].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Contained ids must be definitions of the same scope; `selfId` may be named (a one-step cycle is harmless). */
function assertContained(
  ctx: OpContext,
  projectId: string,
  scope: PermissionScope,
  ids: readonly string[],
  selfId?: string,
): string[] {
  for (const id of ids) {
    if (id === selfId) continue;
    const found = findDefinition(ctx, projectId, id);
    if (!found || found.scope !== scope) throw knownError("CONTAINED_PERMISSION_NOT_FOUND", { permission_id: id });
  }
  return [...new Set(ids)];
}

function assertIdFree(ctx: OpContext, projectId: string, id: string): void {
  if (findDefinition(ctx, projectId, id)) throw knownError("PERMISSION_ID_ALREADY_EXISTS", { permission_id: id });
}

export function createDefinition(
  ctx: OpContext,
  projectId: string,
  scope: PermissionScope,
  body: PermissionDefinitionCreate,
): PermissionDefinitionRecord {
  assertIdFree(ctx, projectId, body.id);
  const record: PermissionDefinitionRecord = {
    projectId,
    id: body.id,
    scope,
    description: body.description ?? null,
    containedPermissionIds: assertContained(ctx, projectId, scope, body.contained_permission_ids ?? []),
    createdAtMillis: ctx.now,
  };
  ctx.tables.permissionDefinitions.set(definitionKey(projectId, record.id), record);
  return record;
}

/** PATCH: may rename (then every reference follows: containments, grants, project defaults). */
export function updateDefinition(
  ctx: OpContext,
  projectId: string,
  scope: PermissionScope,
  id: string,
  body: PermissionDefinitionUpdate,
): PermissionDefinitionRecord {
  const current = requireDefinition(ctx, projectId, scope, id);
  const nextId = body.id ?? id;
  if (nextId !== id) assertIdFree(ctx, projectId, nextId);
  const contained = body.contained_permission_ids ?? current.containedPermissionIds;
  const next: PermissionDefinitionRecord = {
    ...current,
    id: nextId,
    description: body.description ?? current.description,
    containedPermissionIds: assertContained(ctx, projectId, scope, contained, nextId).map((c) =>
      c === id ? nextId : c,
    ),
  };
  if (nextId !== id) {
    ctx.tables.permissionDefinitions.delete(definitionKey(projectId, id));
    rewriteReferences(ctx, projectId, id, nextId);
  }
  ctx.tables.permissionDefinitions.set(definitionKey(projectId, nextId), next);
  return next;
}

/** DELETE: the definition, its grants, and every mention of it in other definitions and in the project defaults. */
export function deleteDefinition(ctx: OpContext, projectId: string, scope: PermissionScope, id: string): void {
  requireDefinition(ctx, projectId, scope, id);
  ctx.tables.permissionDefinitions.delete(definitionKey(projectId, id));
  rewriteReferences(ctx, projectId, id, null);
}

/** Renames (`to` an id) or removes (`to` null) a permission id wherever it is referenced. */
function rewriteReferences(ctx: OpContext, projectId: string, from: string, to: string | null): void {
  const swap = (ids: readonly string[]) => [
    ...new Set(ids.flatMap((x) => (x !== from ? [x] : to === null ? [] : [to]))),
  ];
  for (const def of [...ctx.tables.permissionDefinitions.values()]) {
    if (def.projectId === projectId && def.containedPermissionIds.includes(from)) {
      ctx.tables.permissionDefinitions.set(definitionKey(projectId, def.id), {
        ...def,
        containedPermissionIds: swap(def.containedPermissionIds),
      });
    }
  }
  const grants = ctx.tables.teamPermissionGrants;
  for (const [key, grant] of grants.entries()) {
    if (grant.projectId !== projectId || grant.permissionId !== from) continue;
    grants.delete(key);
    if (to !== null) grants.set(teamGrantKey(grant.teamId, grant.userId, to), { ...grant, permissionId: to });
  }
  const projectGrants = ctx.tables.projectPermissionGrants;
  for (const [key, grant] of projectGrants.entries()) {
    if (grant.projectId !== projectId || grant.permissionId !== from) continue;
    projectGrants.delete(key);
    if (to !== null) projectGrants.set(projectGrantKey(grant.userId, to), { ...grant, permissionId: to });
  }
  const project = ctx.tables.projects.get(projectId);
  if (!project) return;
  const lists = [
    "team_creator_default_permissions",
    "team_member_default_permissions",
    "user_default_permissions",
  ] as const;
  const config: ProjectConfigRecord = { ...project.config };
  for (const list of lists) config[list] = swap(config[list].map((p) => p.id)).map((pid) => ({ id: pid }));
  ctx.tables.projects.set(projectId, { ...project, config });
}

/**
 * The ids `direct` grants imply: each granted id and everything it contains, transitively. A visited set makes cycles
 * terminate (spec §6 "Definitions may contain other permissions"); ids without a definition still count as granted.
 */
export function expandPermissions(ctx: OpContext, projectId: string, direct: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...direct];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const contained of findDefinition(ctx, projectId, id)?.containedPermissionIds ?? [])
      if (!seen.has(contained)) stack.push(contained);
  }
  return seen;
}
