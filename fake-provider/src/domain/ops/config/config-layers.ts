import { configLevels, type ConfigLevel, type ConfigSourceJson } from "@authsim/sdk/contract";
import { defineOwn, prototypeSegment, setPath } from "../../safe-keys.ts";
import { entryFieldOf, flatten } from "./config-flat.ts";
import type { Tables } from "../../store/store.ts";

/**
 * The override layers of a project's config (protocol.md §6.5), applied in the order project → branch → environment
 * over the defaults. Each level is stored as written (upstream keeps every key as given: `"a.b": {c: 1}` stays one key
 * with its object, and GET /internal/config/override/{level} answers it so), in the configOverrides table keyed
 * `${projectId}:${level}`; what renders the config reads its flat form (config-flat.ts: one dotted key per leaf), made
 * once per stored object. A `null` value resets its key (and everything under it) to the layer below.
 */

const levelKey = (projectId: string, level: ConfigLevel) => `${projectId}:${level}`;

/** The flat form of each stored override (a record's override is replaced, never changed in place). */
const flatForms = new WeakMap<Record<string, unknown>, Record<string, unknown>>();

/** A level's override as it was written (migrated): what GET answers and what a PATCH merges into. */
export function getWrittenOverride(
  ctx: { tables: Tables },
  projectId: string,
  level: ConfigLevel,
): Record<string, unknown> {
  return ctx.tables.configOverrides.get(levelKey(projectId, level))?.override ?? {};
}

/** A level's override in flat form (one dotted key per leaf, `{}` for an entry an object makes): what renders read. */
export function getOverride(ctx: { tables: Tables }, projectId: string, level: ConfigLevel): Record<string, unknown> {
  const written = getWrittenOverride(ctx, projectId, level);
  let flat = flatForms.get(written);
  if (flat === undefined) {
    flat = flatten(written);
    flatForms.set(written, flat);
  }
  return flat;
}

/** Replaces a level's override (as written), keeping its source (a PATCH or a reset leaves where the branch config came from as it was). */
export function setOverride(
  ctx: { tables: Tables },
  projectId: string,
  level: ConfigLevel,
  override: Record<string, unknown>,
  source?: ConfigSourceJson,
): void {
  const old = ctx.tables.configOverrides.get(levelKey(projectId, level));
  const kept = source ?? old?.source;
  ctx.tables.configOverrides.set(levelKey(projectId, level), {
    projectId,
    level,
    override,
    ...(kept ? { source: kept } : {}),
  });
}

/** GET /internal/config/source: where the branch config was pushed from; a project nothing was pushed to is unlinked. */
export function getSource(ctx: { tables: Tables }, projectId: string): ConfigSourceJson {
  return ctx.tables.configOverrides.get(levelKey(projectId, "branch"))?.source ?? { type: "unlinked" };
}

/** DELETE /internal/config/source: the branch config stays, its link goes. */
export function unlinkSource(ctx: { tables: Tables }, projectId: string): void {
  setOverride(ctx, projectId, "branch", getWrittenOverride(ctx, projectId, "branch"), { type: "unlinked" });
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether `key` is `path` or lies under it. */
export const isUnder = (key: string, path: string) => key === path || key.startsWith(`${path}.`);

/** Removes the value at a dotted path (own properties only). */
export function deletePath(target: Record<string, unknown>, path: string): void {
  const parts = path.split(".");
  let node: Record<string, unknown> = target;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(node, part) ? node[part] : undefined;
    if (!isPlainObject(next)) return;
    node = next;
  }
  const last = parts.at(-1)!;
  if (Object.hasOwn(node, last)) delete node[last];
}

/**
 * Applies flat override keys onto `target` (nested), in order: a null removes, an empty object makes the entry (its
 * fields then take their defaults), anything else is written. Keys naming a prototype are skipped: writes refuse them,
 * so they can only come from a hand-made snapshot.
 */
export function applyKeys(
  target: Record<string, unknown>,
  keys: Record<string, unknown>,
  accept: (key: string) => boolean = () => true,
): void {
  for (const [key, value] of Object.entries(keys)) {
    if (!accept(key) || prototypeSegment(key) !== null) continue;
    if (value === null) deletePath(target, key);
    else if (isPlainObject(value)) {
      // `{}` makes the entry; a non-empty object here came from a nested write of an older version (it is flattened now).
      setPath(target, key, structuredClone(value));
    } else setPath(target, key, value);
  }
}

/**
 * Applies the override's keys under `path` to a section rendered from the emulator's tables, and answers the result.
 * `replaced`: keys the override gave a whole object (`"auth.oauth.providers.google": {…}`), which replaces what was there.
 */
export function sectionAfter(
  path: string,
  rendered: Record<string, unknown>,
  keys: [string, unknown][],
  replaced: readonly string[],
): Record<string, unknown> {
  const holder: Record<string, unknown> = {};
  setPath(holder, path, rendered);
  for (const key of replaced) if (isUnder(key, path)) deletePath(holder, key);
  // A dotted key into an entry that does not exist (yet) is ignored, as upstream ignores it: only an object makes one.
  applyKeys(holder, Object.fromEntries(keys), (key) => {
    const entry = entryFieldOf(key);
    if (entry === null) return true;
    let node: unknown = holder;
    for (const part of entry.split("."))
      node = isPlainObject(node) && Object.hasOwn(node, part) ? node[part] : undefined;
    return isPlainObject(node);
  });
  let node: unknown = holder;
  for (const part of path.split(".")) node = isPlainObject(node) && Object.hasOwn(node, part) ? node[part] : undefined;
  return isPlainObject(node) ? node : {};
}

/** Every level's keys that `accept` takes, applied in order over `base`. */
export function renderLayers(
  ctx: { tables: Tables },
  projectId: string,
  base: Record<string, unknown>,
  accept: (key: string) => boolean,
): Record<string, unknown> {
  for (const level of configLevels) applyKeys(base, getOverride(ctx, projectId, level), accept);
  return base;
}

/**
 * PATCH semantics, on overrides as written (upstream's override()): a new key replaces the old key of that name and
 * every old key under it; an old key above it stays (`"a": {…}` and a new `"a.b"` are both kept, the later one wins).
 */
export function mergeOverride(old: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  const nextKeys = Object.keys(next);
  for (const [key, value] of Object.entries(old)) {
    if (!nextKeys.some((k) => isUnder(key, k))) defineOwn(merged, key, value);
  }
  for (const [key, value] of Object.entries(next)) defineOwn(merged, key, value);
  return merged;
}

/**
 * An override as written without `paths` and everything under them, whether a key names them with dots or an object
 * holds them (upstream's removeKeysFromConfig): an object left empty by the removal goes too.
 */
export function removeKeys(override: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(override)) {
    if (paths.some((p) => isUnder(key, p))) continue;
    const inner = paths.filter((p) => p.startsWith(`${key}.`)).map((p) => p.slice(key.length + 1));
    if (inner.length > 0 && isPlainObject(value)) {
      const cleaned = removeKeys(value, inner);
      if (Object.keys(cleaned).length > 0) defineOwn(kept, key, cleaned);
    } else defineOwn(kept, key, value);
  }
  return kept;
}

/** Removes keys under `paths` from every level (used when a section is replaced wholesale). */
export function clearKeysEverywhere(ctx: { tables: Tables }, projectId: string, paths: readonly string[]): void {
  for (const level of configLevels) {
    const override = getWrittenOverride(ctx, projectId, level);
    const kept = removeKeys(override, paths);
    if (JSON.stringify(kept) !== JSON.stringify(override)) setOverride(ctx, projectId, level, kept);
  }
}

/**
 * The rendered value of one boolean setting that only the layers hold (no record field), read without rendering the
 * whole config: the last level that sets it, or a parent object, wins; `null` resets to the default.
 */
export function layeredBoolean(ctx: { tables: Tables }, projectId: string, path: string, fallback: boolean): boolean {
  let value = fallback;
  for (const level of configLevels) {
    for (const [key, v] of Object.entries(getOverride(ctx, projectId, level))) {
      if (!isUnder(path, key)) continue;
      if (key === path) value = typeof v === "boolean" ? v : fallback;
      else if (v === null) value = fallback;
      else {
        let node: unknown = v;
        for (const part of path.slice(key.length + 1).split("."))
          node = isPlainObject(node) && Object.hasOwn(node, part) ? node[part] : undefined;
        value = typeof node === "boolean" ? node : fallback;
      }
    }
  }
  return value;
}
