import type { Tables } from "../../store/store.ts";
import { isUnder, renderLayers } from "../config/config-layers.ts";

/** One entry of `dbSync.externalDatabases` as the config renders it. */
export interface ExternalDatabaseConfig {
  type: string;
  connectionString: string | null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A project's `dbSync.externalDatabases`, read from its config layers only (no other section is rendered: the sequencer
 * asks after every change).
 */
export function externalDatabasesOf(
  ctx: { tables: Tables },
  projectId: string,
): Record<string, ExternalDatabaseConfig> {
  const rendered = renderLayers(ctx, projectId, {}, (key) => isUnder(key, "dbSync") || isUnder("dbSync", key));
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
