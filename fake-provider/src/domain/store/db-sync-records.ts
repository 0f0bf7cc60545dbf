/**
 * The external database sync's own state (domain/ops/db-sync/): what the sequencer last saw of each project's synced
 * rows, the sync requests waiting for the poller, and the pipeline's switches. Plain JSON values, replaced and never
 * mutated (see records.ts), so snapshots and undo cover them.
 */

/** A cell as the sequencer stores it: times in epoch milliseconds, JSON as `{ json }` (db-sync-mappings.ts). */
export type DbSyncCell = string | number | boolean | null | { readonly json: unknown };

/** One row of a mapping as last sequenced: its values, the sequence id it got, and whether it is a tombstone. */
export interface SequencedRow {
  values: DbSyncCell[];
  /** The values as JSON, to tell a change without serialising the old row again. */
  json: string;
  sequenceId: number;
  deleted: boolean;
  /** When the sequencer first saw the row (a `firstSeen` column's value). */
  firstSeenAtMillis: number;
}

/** Keyed by project id: per mapping id, the rows by their key within the mapping. */
export interface DbSyncStateRecord {
  projectId: string;
  mappings: Record<string, Record<string, SequencedRow>>;
  /** The project's `dbSync.externalDatabases` as JSON when the sequencer last ran: a change queues a sync. */
  databases?: string;
}

/** A project's sync waiting for the poller (the real service's outgoing request): one at most per project. Keyed by project id. */
export interface DbSyncRequestRecord {
  projectId: string;
  createdAtMillis: number;
}

/** The pipeline's switches (GET/POST /internal/external-db-sync/fusebox); keyed "fusebox"; absent: both on. */
export interface DbSyncFuseboxRecord {
  sequencerEnabled: boolean;
  pollerEnabled: boolean;
}
