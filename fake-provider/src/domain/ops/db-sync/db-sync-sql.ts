import type { ColumnSpec, ColumnType, DbSyncMapping } from "./db-sync-mappings.ts";

/**
 * The SQL the sync engine sends an external PostgreSQL, made from a mapping (db-sync-mappings.ts): the table as the real
 * service creates it (readable by every role, writable by none but its owner), the progress table, and one statement
 * per row that upserts it or, for a tombstone, deletes it, and moves the mapping's progress forward in the same
 * statement, so a row and its progress are never apart.
 */

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
const sqlType: Record<ColumnType, string> = {
  uuid: "uuid",
  text: "text",
  boolean: "boolean",
  timestamp: "timestamp without time zone",
  jsonb: "jsonb",
  bigint: "bigint",
  integer: "integer",
};

export const METADATA_TABLE = "_stack_sync_metadata";

export const metadataTableSql = `CREATE TABLE IF NOT EXISTS ${quote(METADATA_TABLE)} (
  "mapping_name" text PRIMARY KEY NOT NULL,
  "last_synced_sequence_id" bigint NOT NULL DEFAULT -1,
  "updated_at" timestamp without time zone NOT NULL DEFAULT now()
);`;

function columnSql(column: ColumnSpec, soleKey: boolean): string {
  return [
    quote(column.name),
    sqlType[column.type],
    ...(soleKey ? ["PRIMARY KEY"] : []),
    ...(column.required ? ["NOT NULL"] : []),
    ...(column.default !== undefined ? [`DEFAULT ${column.default}`] : []),
  ].join(" ");
}

/** CREATE TABLE IF NOT EXISTS and its grants: anyone may read it, only the sync (the table's owner) writes. */
export function tableSql(mapping: DbSyncMapping): string {
  const soleKey = mapping.key.length === 1;
  const lines = mapping.columns.map((c) => columnSql(c, soleKey && c.name === mapping.key[0]));
  if (!soleKey) lines.push(`PRIMARY KEY (${mapping.key.map(quote).join(", ")})`);
  const table = quote(mapping.table);
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (\n  ${lines.join(",\n  ")}\n);`,
    `REVOKE ALL ON ${table} FROM PUBLIC;`,
    `GRANT SELECT ON ${table} TO PUBLIC;`,
  ].join("\n");
}

/**
 * One row's statement. Parameters: the columns in order, then the row's sequence id, whether it is a tombstone, and the
 * mapping's name. Progress only moves forward (GREATEST), whoever writes last.
 */
export function rowSql(mapping: DbSyncMapping): string {
  const n = mapping.columns.length;
  const params = mapping.columns.map((c, i) => `$${i + 1}::${sqlType[c.type]} AS ${quote(c.name)}`);
  params.push(
    `$${n + 1}::bigint AS "sequence_id"`,
    `$${n + 2}::boolean AS "is_deleted"`,
    `$${n + 3}::text AS "mapping_name"`,
  );
  const table = quote(mapping.table);
  const columns = mapping.columns.map((c) => quote(c.name));
  const keyMatch = mapping.key.map((k) => `t.${quote(k)} = p.${quote(k)}`).join(" AND ");
  const updates = mapping.columns
    .filter((c) => !mapping.key.includes(c.name))
    .map((c) => `${quote(c.name)} = EXCLUDED.${quote(c.name)}`);
  return `WITH p AS (SELECT ${params.join(", ")}),
removed AS (DELETE FROM ${table} t USING p WHERE p."is_deleted" AND ${keyMatch} RETURNING 1),
written AS (
  INSERT INTO ${table} (${columns.join(", ")})
  SELECT ${columns.map((c) => `p.${c}`).join(", ")} FROM p WHERE NOT p."is_deleted"
  ON CONFLICT (${mapping.key.map(quote).join(", ")}) DO ${updates.length > 0 ? `UPDATE SET ${updates.join(", ")}` : "NOTHING"}
  RETURNING 1
)
INSERT INTO ${quote(METADATA_TABLE)} ("mapping_name", "last_synced_sequence_id", "updated_at")
SELECT p."mapping_name", p."sequence_id", now() FROM p
ON CONFLICT ("mapping_name") DO UPDATE SET
  "last_synced_sequence_id" = GREATEST(${quote(METADATA_TABLE)}."last_synced_sequence_id", EXCLUDED."last_synced_sequence_id"),
  "updated_at" = now();`;
}

/** A cell as a query parameter: times as UTC wall-clock text (the columns have no time zone), JSON as text. */
export function parameterOf(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (type === "timestamp") return new Date(value as number).toISOString().replace("Z", "");
  if (type === "jsonb") return JSON.stringify((value as { json: unknown }).json);
  return value;
}
