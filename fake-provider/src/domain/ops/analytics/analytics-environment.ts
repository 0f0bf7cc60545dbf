import type { Row } from "./analytics-values.ts";

/** What an analytics query runs against: the tables it may read, its parameters, the clock, its settings and bounds. */
export interface QueryEnvironment {
  /** Table name → its rows (already limited to what the caller may read). */
  tables: Record<string, Row[]>;
  params: Record<string, unknown>;
  nowMillis: number;
  settings: Record<string, string>;
  maxResultRows: number;
  /** Every table with rows, where `tables` holds only those the query reads (a refusal lists them). */
  served?: readonly string[];
}
