import type { SequencedRow } from "../../store/db-sync-records.ts";
import type { Tables } from "../../store/store.ts";
import { externalDatabasesOf, type ExternalDatabaseConfig } from "./db-sync-config.ts";
import { dbSyncMappings, type DbSyncMapping } from "./db-sync-mappings.ts";
import { metadataTableSql, parameterOf, rowSql, tableSql, METADATA_TABLE } from "./db-sync-sql.ts";

/**
 * The sync engine (the real service's POST /internal/external-db-sync/sync-engine, which its queue calls per tenancy):
 * for each of a project's external databases, one connection; per mapping in order, the table made if missing, the
 * mapping's progress read from `_stack_sync_metadata`, and every sequenced row after it sent in sequence order, one
 * statement each. A database that cannot be reached or refuses a statement fails alone: the others are still synced,
 * and the next change tries it again (the real engine logs the error and waits for the next change too).
 *
 * The connection is a seam (`OpenExternalDb`): Node opens a real PostgreSQL connection with `pg`
 * (emulator-free code in db-sync-client-node.ts); a browser cannot, and every attempt fails as a refused connection
 * would (db-sync-client-none.ts). package.json's `#db-sync-client` import chooses.
 */

export interface ExternalDbConnection {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

export type OpenExternalDb = (connectionString: string) => Promise<ExternalDbConnection>;

/** What one sync of a project sends: read in a transaction, sent after it with no lock held. */
export interface SyncJob {
  projectId: string;
  databases: [string, ExternalDatabaseConfig][];
  mappings: { mapping: DbSyncMapping; rows: SequencedRow[] }[];
}

export interface DatabaseOutcome {
  id: string;
  /** How many rows were sent. */
  rows: number;
  error: string | null;
}

export function syncJobFor(tables: Tables, projectId: string): SyncJob {
  const state = tables.dbSyncStates.get(projectId);
  return {
    projectId,
    databases: Object.entries(externalDatabasesOf({ tables }, projectId)),
    mappings: dbSyncMappings.map((mapping) => ({
      mapping,
      rows: Object.values(state?.mappings[mapping.id] ?? {}).sort((a, b) => a.sequenceId - b.sequenceId),
    })),
  };
}

/** An error as the status endpoint and the logs show it: its name and message (and a PostgreSQL error's code). */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}: ${error.message}${typeof code === "string" ? ` (code ${code})` : ""}`;
}

async function syncMapping(db: ExternalDbConnection, mapping: DbSyncMapping, rows: SequencedRow[]): Promise<number> {
  await db.query(tableSql(mapping));
  const progress = await db.query(
    `SELECT "last_synced_sequence_id" FROM "${METADATA_TABLE}" WHERE "mapping_name" = $1`,
    [mapping.id],
  );
  const last = progress.rows.length > 0 ? Number(progress.rows[0]!.last_synced_sequence_id) : -1;
  const statement = rowSql(mapping);
  let sent = 0;
  for (const row of rows) {
    if (row.sequenceId <= last) continue;
    const params = mapping.columns.map((c, i) => parameterOf(c.type, row.values[i]));
    await db.query(statement, [...params, row.sequenceId, row.deleted, mapping.id]);
    sent++;
  }
  return sent;
}

async function syncDatabase(job: SyncJob, config: ExternalDatabaseConfig, open: OpenExternalDb): Promise<number> {
  if (config.type !== "postgres") throw new Error(`Unsupported database type '${config.type}'.`);
  if (!config.connectionString) throw new Error("Invalid configuration: 'connectionString' is missing.");
  const db = await open(config.connectionString);
  try {
    await db.query(metadataTableSql);
    let sent = 0;
    for (const { mapping, rows } of job.mappings) sent += await syncMapping(db, mapping, rows);
    return sent;
  } finally {
    await db.end().catch(() => undefined);
  }
}

/**
 * One sync at a time per project and database: two at once (the worker's and a call of the sync-engine route) could
 * otherwise write an older version of a row after a newer one.
 */
const running = new Map<string, Promise<unknown>>();

function serialised<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = running.get(key) ?? Promise.resolve();
  const run = before.then(work, work);
  const settled = run.catch(() => undefined);
  running.set(key, settled);
  void settled.then(() => {
    if (running.get(key) === settled) running.delete(key);
  });
  return run;
}

export async function runSyncJob(job: SyncJob, open: OpenExternalDb): Promise<DatabaseOutcome[]> {
  const outcomes: DatabaseOutcome[] = [];
  for (const [id, config] of job.databases) {
    try {
      const rows = await serialised(`${job.projectId}\u0000${config.connectionString ?? ""}`, () =>
        syncDatabase(job, config, open),
      );
      outcomes.push({ id, rows, error: null });
    } catch (error) {
      outcomes.push({ id, rows: 0, error: errorText(error) });
    }
  }
  return outcomes;
}
