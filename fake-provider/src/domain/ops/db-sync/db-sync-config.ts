import type { Tables } from "../../store/store.ts";
import { isUnder, renderLayers } from "../config/config-layers.ts";

/** One entry of `dbSync.externalDatabases` as the config renders it. */
export interface ExternalDatabaseConfig {
  type: string;
  connectionString: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The config keys the sync's section is rendered from: `dbSync` itself and everything under it. */
const readsSync = (key: string) => isUnder(key, "dbSync") || isUnder("dbSync", key);

/** Whether a stored override holds any such key, by override object (a record's override is replaced, never changed). */
const mentionsSync = new WeakMap<Record<string, unknown>, boolean>();

/**
 * Whether any config layer of any project holds a key of the sync's section. Without one no project has an external
 * database (its section renders empty), which the worker learns after every commit from one look at each layer instead
 * of rendering every project's layers (issue 30: every request paid that, with no database anywhere).
 */
export function anyLayerMentionsSync(tables: Tables): boolean {
  for (const { override } of tables.configOverrides.values()) {
    let mentions = mentionsSync.get(override);
    if (mentions === undefined) {
      mentions = Object.keys(override).some(readsSync);
      mentionsSync.set(override, mentions);
    }
    if (mentions) return true;
  }
  return false;
}

/**
 * A project's `dbSync.externalDatabases`, read from its config layers only (no other section is rendered: the sequencer
 * asks after every change).
 */
export function externalDatabasesOf(
  ctx: { tables: Tables },
  projectId: string,
): Record<string, ExternalDatabaseConfig> {
  const rendered = renderLayers(ctx, projectId, {}, readsSync);
  const dbSync = rendered.dbSync;
  const databases = isObject(dbSync) ? dbSync.externalDatabases : undefined;
  if (!isObject(databases)) return {};
  const out: Record<string, ExternalDatabaseConfig> = {};
  for (const [id, entry] of Object.entries(databases)) {
    if (!isObject(entry)) continue;
    out[id] = {
      type: typeof entry.type === "string" ? entry.type : "postgres",
      connectionString: typeof entry.connectionString === "string" ? entry.connectionString : null,
    };
  }
  return out;
}
