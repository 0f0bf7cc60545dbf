import type { DbSyncCell } from "../../store/db-sync-records.ts";
import type { Tables } from "../../store/store.ts";

/** What a mapping of the external database sync is made of (db-sync-mappings.ts lists them). */

export type ColumnType = "uuid" | "text" | "boolean" | "timestamp" | "jsonb" | "bigint" | "integer";

export interface ColumnSpec {
  readonly name: string;
  readonly type: ColumnType;
  /** NOT NULL in the external table. */
  readonly required?: boolean;
  /** The column's DEFAULT, as SQL. */
  readonly default?: string;
  readonly firstSeen?: boolean;
  readonly assignedId?: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whether a cell fits a uuid column (a fixture's own ids may not: such a row cannot be copied). */
export const isUuidCell = (value: unknown): boolean => typeof value === "string" && UUID.test(value);

/** A column value as the emulator computes it: times in epoch milliseconds, JSON as `{ json }`. */
export type CellValue = DbSyncCell;

export interface DbSyncMapping {
  /** The mapping's name: the `_stack_sync_metadata` row and the status endpoint's `mapping_id`. */
  readonly id: string;
  readonly table: string;
  readonly columns: readonly ColumnSpec[];
  /** The primary key's columns. */
  readonly key: readonly string[];
  /**
   * The project's rows, by a key unique within the mapping: the values of the columns in order, `undefined` in place
   * of an `assignedId` column or a `firstSeen` column the record has no time for (the sequencer fills them).
   */
  rows(tables: Tables, projectId: string, now: number): Map<string, (CellValue | undefined)[]>;
}
