import { operationPath } from "@authsim/sdk/contract";
/**
 * The settings editor's model, pure functions over JSON (no React): reading and writing a dotted path immutably, the
 * list of changes between the config the service rendered and the dashboard's draft, and the requests that apply it.
 *
 * The config is the real service's nested shape (GET /internal/config). A change is a config override of dotted keys
 * at the environment level (PATCH /internal/config/override/environment): where the real dashboard writes what it never
 * pushes to a branch config (domains, the email server, OAuth secrets) and where the published SDK's `updateConfig`
 * writes; an emulated project has no branch config pushed from a repository, so one level serves every key here. As
 * the real dashboard does, an entry of a map (a trusted domain, an OAuth provider, an item …) is written whole
 * (`"domains.trustedDomains.d1": {…}`) or removed with `null`, a single setting as its leaf. Project fields the
 * emulator does not take as overrides (production mode, the email theme, default permissions) go through
 * PATCH /internal/projects/current.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** Maps whose entries are written whole, as the real dashboard writes them. */
export const ENTRY_MAPS = [
  "auth.oauth.providers",
  "domains.trustedDomains",
  "payments.items",
  "payments.products",
  "payments.productLines",
  "dataVault.stores",
] as const;

export function getPath(root: Json | undefined, path: string): Json | undefined {
  let node: Json | undefined = root;
  for (const part of path.split(".")) {
    if (!isObject(node) || !Object.hasOwn(node, part)) return undefined;
    node = node[part];
  }
  return node;
}

/** A copy of `root` with `value` at `path` (intermediate objects made as needed); `undefined` removes the key. */
export function setPath(root: JsonObject, path: string, value: Json | undefined): JsonObject {
  const [head, ...rest] = path.split(".") as [string, ...string[]];
  const copy: JsonObject = { ...root };
  if (rest.length === 0) {
    if (value === undefined) delete copy[head];
    else copy[head] = value;
    return copy;
  }
  const child = Object.hasOwn(root, head) && isObject(root[head]) ? root[head] : {};
  copy[head] = setPath(child, rest.join("."), value);
  return copy;
}

const same = (a: Json | undefined, b: Json | undefined) => JSON.stringify(a) === JSON.stringify(b);

/** One changed leaf, for the person reading the diff; `undefined` on a side means the key is absent there. */
export interface Change {
  key: string;
  before: Json | undefined;
  after: Json | undefined;
}

/** Every leaf that differs, in a stable order (keys of `before` first). */
export function leafChanges(before: Json | undefined, after: Json | undefined, path = ""): Change[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !Object.hasOwn(before, k))];
    return keys.flatMap((k) =>
      leafChanges(
        Object.hasOwn(before, k) ? before[k] : undefined,
        Object.hasOwn(after, k) ? after[k] : undefined,
        path ? `${path}.${k}` : k,
      ),
    );
  }
  if (isObject(before) && after === undefined) return leafChanges(before, {}, path);
  if (before === undefined && isObject(after)) return leafChanges({}, after, path);
  return same(before, after) ? [] : [{ key: path, before, after }];
}

const isEntryMap = (path: string) => (ENTRY_MAPS as readonly string[]).includes(path);

/** Drops undefined (JSON has none) so an entry written whole holds only what the form set. */
const clean = (v: Json): Json => JSON.parse(JSON.stringify(v)) as Json;

/** The config override (dotted keys) that turns `before` into `after`. */
export function overrideOf(before: JsonObject, after: JsonObject, path = ""): JsonObject {
  const out: JsonObject = {};
  const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !Object.hasOwn(before, k))];
  for (const key of keys) {
    const full = path ? `${path}.${key}` : key;
    const b = Object.hasOwn(before, key) ? before[key] : undefined;
    const a = Object.hasOwn(after, key) ? after[key] : undefined;
    if (same(b, a)) continue;
    if (a === undefined) out[full] = null;
    else if (isEntryMap(path)) out[full] = clean(a);
    else if (isObject(a) && isObject(b)) Object.assign(out, overrideOf(b, a, full));
    else out[full] = clean(a);
  }
  return out;
}

/** The project fields the settings editor changes outside the config override. */
export interface ProjectFields {
  is_production_mode: boolean;
  email_theme: string;
  team_creator_default_permissions: string[];
  team_member_default_permissions: string[];
  user_default_permissions: string[];
}

const permissionLists = [
  "team_creator_default_permissions",
  "team_member_default_permissions",
  "user_default_permissions",
] as const;

/** The PATCH /internal/projects/current body for what changed, or null when nothing did. */
export function projectPatchOf(before: ProjectFields, after: ProjectFields): JsonObject | null {
  const body: JsonObject = {};
  const config: JsonObject = {};
  if (before.is_production_mode !== after.is_production_mode) body.is_production_mode = after.is_production_mode;
  if (before.email_theme !== after.email_theme) config.email_theme = after.email_theme;
  for (const list of permissionLists) {
    if (!same([...before[list]].sort(), [...after[list]].sort())) config[list] = after[list].map((id) => ({ id }));
  }
  if (Object.keys(config).length > 0) body.config = config;
  return Object.keys(body).length > 0 ? body : null;
}

/** The changes to project fields, as leaf changes named like the admin API's fields. */
export function projectChanges(before: ProjectFields, after: ProjectFields): Change[] {
  const changes: Change[] = [];
  if (before.is_production_mode !== after.is_production_mode)
    changes.push({ key: "is_production_mode", before: before.is_production_mode, after: after.is_production_mode });
  if (before.email_theme !== after.email_theme)
    changes.push({ key: "config.email_theme", before: before.email_theme, after: after.email_theme });
  for (const list of permissionLists) {
    for (const id of after[list])
      if (!before[list].includes(id)) changes.push({ key: `config.${list}.${id}`, before: undefined, after: true });
    for (const id of before[list])
      if (!after[list].includes(id)) changes.push({ key: `config.${list}.${id}`, before: true, after: undefined });
  }
  return changes;
}

export interface PlannedRequest {
  /** The contract operation; method and path are its, for showing the plan. */
  id: "updateConfigOverrideLevel" | "updateAdminProject";
  method: "PATCH";
  path: string;
  body: JsonObject;
}

const OVERRIDE_PATH = operationPath("updateConfigOverrideLevel", { level: "environment" });
const PROJECT_PATH = operationPath("updateAdminProject");

/**
 * The requests that apply a draft, in an order the service accepts: turning production mode on comes after the
 * override (which may fix the domains it checks); turning it off comes first (so the override is no longer checked).
 */
export function plan(override: JsonObject, projectPatch: JsonObject | null): PlannedRequest[] {
  const requests: PlannedRequest[] = [];
  const overrideRequest: PlannedRequest | null =
    Object.keys(override).length > 0
      ? {
          id: "updateConfigOverrideLevel",
          method: "PATCH",
          path: OVERRIDE_PATH,
          body: { config_override_string: JSON.stringify(override) },
        }
      : null;
  const projectRequest: PlannedRequest | null = projectPatch
    ? { id: "updateAdminProject", method: "PATCH", path: PROJECT_PATH, body: projectPatch }
    : null;
  if (projectRequest && projectPatch?.is_production_mode === true)
    requests.push(...[overrideRequest, projectRequest].filter((r) => r !== null));
  else requests.push(...[projectRequest, overrideRequest].filter((r) => r !== null));
  return requests;
}

/** A value as the diff shows it: JSON, or "(absent)" for a key one side lacks. */
export function showValue(v: Json | undefined): string {
  return v === undefined ? "(absent)" : JSON.stringify(v);
}
