import type { ProjectConfigRecord, ProjectRecord } from "../../store/records.ts";
import { definitionKey, type PermissionDefinitionRecord } from "../../store/team-records.ts";
import type { OpContext } from "../context.ts";
import { isSystemPermission, listDefinitions } from "../teams/permissions.ts";
import { isUnder, sectionAfter } from "./config-layers.ts";

/**
 * The config's `rbac` section (permission definitions and the default permission sets) and the emulator's own
 * records of it: the definitions table (domain/ops/teams/permissions.ts, which the permission endpoints write) and the
 * project's default permission lists. The config renders from them, and an override's `rbac…` keys write into them,
 * so a permission defined through an override can be granted at once (upstream keeps its definitions in the config
 * itself: its permission endpoints write the environment override).
 */

export const rbacKey = "rbac";
const permissionsKey = "rbac.permissions";
const defaultsKey = "rbac.defaultPermissions";

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A list of ids as the config keeps it: a set, `{id: true}`. */
const idSet = (ids: readonly string[]) => Object.fromEntries(ids.map((id) => [id, true]));
/** A config set back to ids: upstream's schema takes only `true`. */
const idsOf = (set: unknown) => (isPlainObject(set) ? Object.keys(set).filter((id) => set[id] === true) : []);

/** The default permission sets, by the config's names, and the project record's list each one is. */
const defaultLists = {
  teamCreator: "team_creator_default_permissions",
  teamMember: "team_member_default_permissions",
  signUp: "user_default_permissions",
} as const satisfies Record<string, keyof ProjectConfigRecord>;

/** `rbac` as the config renders it: the project's own definitions (the system ones are not config) and the defaults. */
export function rbacOf(ctx: OpContext, project: ProjectRecord): Record<string, unknown> {
  const definitions = [...listDefinitions(ctx, project.id, "team"), ...listDefinitions(ctx, project.id, "project")];
  return {
    permissions: Object.fromEntries(
      definitions
        .filter((d) => !isSystemPermission(d.id))
        .map((d) => [
          d.id,
          {
            containedPermissionIds: idSet(d.containedPermissionIds),
            ...(d.description === null ? {} : { description: d.description }),
            scope: d.scope,
          },
        ]),
    ),
    defaultPermissions: Object.fromEntries(
      Object.entries(defaultLists).map(([name, list]) => [name, idSet(project.config[list].map((p) => p.id))]),
    ),
  };
}

/**
 * An override's `rbac…` keys (flat) written into the definitions table and the project's default lists; answers the
 * project with its lists after them. A definition is an entry with a scope (one without is in neither scope, so
 * nothing can be granted from it); an entry set to null, or left out of a section given whole (`replaced`), is no
 * longer defined. Contained ids are kept as given, as upstream keeps them (the permission endpoints check them).
 */
export function applyRbacOverride(
  ctx: OpContext,
  project: ProjectRecord,
  override: Record<string, unknown>,
  replaced: readonly string[],
): ProjectRecord {
  const keys = Object.entries(override).filter(([key]) => isUnder(key, rbacKey));
  if (keys.length === 0) return project;
  const rendered = rbacOf(ctx, project);
  // A whole object given at `rbac` (or `rbac.permissions`) replaces each section under it.
  const covering = (path: string) => replaced.map((key) => (isUnder(path, key) ? path : key));
  if (keys.some(([key]) => isUnder(key, permissionsKey) || isUnder(permissionsKey, key))) {
    const before = new Map(
      [...ctx.tables.permissionDefinitions.values()].filter((d) => d.projectId === project.id).map((d) => [d.id, d]),
    );
    const after = sectionAfter(
      permissionsKey,
      rendered.permissions as Record<string, unknown>,
      keys,
      covering(permissionsKey),
    );
    for (const [id, entry] of Object.entries(after)) {
      if (isSystemPermission(id) || !isPlainObject(entry)) continue;
      if (entry.scope !== "team" && entry.scope !== "project") continue;
      const record: PermissionDefinitionRecord = {
        projectId: project.id,
        id,
        scope: entry.scope,
        description: typeof entry.description === "string" ? entry.description : null,
        containedPermissionIds: idsOf(entry.containedPermissionIds),
        createdAtMillis: before.get(id)?.createdAtMillis ?? ctx.now,
      };
      ctx.tables.permissionDefinitions.set(definitionKey(project.id, id), record);
      before.delete(id);
    }
    for (const id of before.keys()) ctx.tables.permissionDefinitions.delete(definitionKey(project.id, id));
  }
  if (!keys.some(([key]) => isUnder(key, defaultsKey) || isUnder(defaultsKey, key))) return project;
  const defaults = sectionAfter(
    defaultsKey,
    rendered.defaultPermissions as Record<string, unknown>,
    keys,
    covering(defaultsKey),
  );
  const config: ProjectConfigRecord = { ...project.config };
  for (const [name, list] of Object.entries(defaultLists)) config[list] = idsOf(defaults[name]).map((id) => ({ id }));
  return { ...project, config };
}
