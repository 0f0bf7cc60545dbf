import type { Tables } from "../../store/store.ts";
import { isUuidCell } from "../db-sync/db-sync-columns.ts";
import { dbSyncMappings, type CellValue, type DbSyncMapping } from "../db-sync/db-sync-mappings.ts";
import { PROJECT_TABLES } from "./analytics-catalog.ts";
import { dateTime, type Row, type Value } from "./analytics-values.ts";

/**
 * The ClickHouse copy of the synced tables, as the analytics query reads it (`users`, `teams`, … in `default`).
 *
 * The real service copies every project's rows into ClickHouse with the same pipeline and the same source rows as an
 * external database, whatever the project's config says (only the deployment's ClickHouse URL turns it on), and the
 * views the query reads keep each key's latest version that is not a deletion, limited to the caller's project and
 * branch by a row policy. Here a table is derived from the external database sync's mapping of the same name
 * (db-sync-mappings.ts): its rows for the project, each column converted as the real copy converts it (booleans 0/1,
 * JSON as compact text, enum names lower case with hyphens in the outbox) to the view's type (analytics-catalog.ts).
 * It is a view of committed state: a deleted row is gone, an update shows at once (the real copy follows within
 * seconds, and its tests poll).
 */

/** The external database's row, by column name. */
type Cells = Readonly<Record<string, CellValue | undefined>>;
/** A column the copy computes rather than takes from the external database's column of the same name. */
type Derived = (cells: Cells, tables: Tables) => CellValue | undefined;

/** The outbox's enum names as the copy writes them (lower case, `-` for `_`). */
const kebab = (name: string) => (cells: Cells) => {
  const value = cells[name];
  return typeof value === "string" ? value.toLowerCase().replaceAll("_", "-") : null;
};

/** The latest of the entry's times: the emulator keeps no separate last-change time for an outbox entry. */
const latestTime = (names: readonly string[]) => (cells: Cells) => {
  let latest: number | null = null;
  for (const name of names) {
    const value = cells[name];
    if (typeof value === "number" && (latest === null || value > latest)) latest = value;
  }
  return latest;
};

/**
 * Where a view's column is not the external table's column of the same name. A grant saved before grants kept their
 * time gets its membership's (a team permission) or its user's sign-up time (a project permission).
 */
const DERIVED: Record<string, Record<string, Derived>> = {
  users: {
    restricted_by_admin: (c, t) => t.users.get(String(c.id))?.restrictedByAdmin ?? false,
    restricted_by_admin_reason: (c, t) => t.users.get(String(c.id))?.restrictedByAdminReason ?? null,
    restricted_by_admin_private_details: (c, t) => t.users.get(String(c.id))?.restrictedByAdminPrivateDetails ?? null,
  },
  team_permissions: {
    id: (c) => c.permission_id,
    created_at: (c, t) => c.created_at ?? t.teamMemberships.get(`${c.team_id}:${c.user_id}`)?.createdAtMillis,
  },
  project_permissions: {
    id: (c) => c.permission_id,
    created_at: (c, t) => c.created_at ?? t.users.get(String(c.user_id))?.signedUpAtMillis,
  },
  email_outboxes: {
    status: kebab("status"),
    simple_status: kebab("simple_status"),
    created_with: kebab("created_with"),
    skipped_reason: kebab("skipped_reason"),
    is_transactional: (c) => c.rendered_is_transactional,
    subject: (c) => c.rendered_subject,
    notification_category_id: (c) => c.rendered_notification_category_id,
    rendered_at: (c) => c.finished_rendering_at,
    updated_at: latestTime([
      "created_at",
      "started_rendering_at",
      "finished_rendering_at",
      "started_sending_at",
      "finished_sending_at",
      "sent_at",
    ]),
  },
};

/**
 * A JSON value as the copy stores it: PostgreSQL's jsonb as the service reads it back into JavaScript and writes it
 * out again, compact, each object's keys in jsonb's order (shorter keys first, then by their bytes) except the
 * index-like keys ("0", "12"), which a JavaScript object lists first in numeric order; building the object here
 * does the same.
 */
export function jsonbText(value: unknown): string {
  // Most metadata is empty: its text without a walk (a third of the time a `SELECT *` over users spent copying).
  if (typeof value === "object" && value !== null && !Array.isArray(value) && isEmpty(value)) return "{}";
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
    const entries = Object.entries(v as Record<string, unknown>);
    entries.sort(([a], [b]) => jsonbKeyOrder(a, b));
    return Object.fromEntries(entries);
  });
}

function isEmpty(value: object): boolean {
  for (const key in value) if (Object.hasOwn(value, key)) return false;
  return true;
}

const utf8 = new TextEncoder();
function jsonbKeyOrder(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/**
 * A cell as the view's ClickHouse type shows it on the wire: UInt8 flags as 0/1, DateTime64 as a DateTime, Int64
 * quoted (JSONEachRow prints 64-bit integers as text), JSON as its text. Null stays null (the Nullable columns).
 */
function toClickHouse(type: string, cell: CellValue | undefined): Value {
  if (cell === undefined || cell === null) return null;
  if (typeof cell === "object") return jsonbText(cell.json);
  if (type.includes("UInt8")) return cell === true || cell === 1 ? 1 : 0;
  if (type.includes("DateTime")) return dateTime(Number(cell));
  if (type.includes("Int64")) return String(cell);
  return cell;
}

interface SyncedTable {
  mapping: DbSyncMapping;
  /** The view's columns after project_id and branch_id: name, type, where the value comes from. */
  columns: { name: string; type: string; derived: Derived | undefined; index: number }[];
  /** The external table's uuid columns, by position: a row whose ids are not UUIDs could not be inserted. */
  uuidColumns: number[];
}

let tablesByName: Map<string, SyncedTable> | undefined;

/** The synced tables, built on the first query that reads one (never at startup: most providers run no query). */
function syncedTables(): Map<string, SyncedTable> {
  if (tablesByName) return tablesByName;
  tablesByName = new Map();
  for (const mapping of dbSyncMappings) {
    const schema = PROJECT_TABLES[mapping.table];
    if (!schema) continue;
    const names = mapping.columns.map((c) => c.name);
    const derived = DERIVED[mapping.table] ?? {};
    const columns = schema.columns
      .filter(([name]) => name !== "project_id" && name !== "branch_id")
      .map(([name, type]) => ({ name, type, derived: derived[name], index: names.indexOf(name) }));
    const missing = columns.find((c) => !c.derived && c.index < 0);
    if (missing) throw new Error(`the ${mapping.table} copy has no source for ${missing.name}`);
    const uuidColumns = mapping.columns.flatMap((c, i) => (c.type === "uuid" && !c.assignedId ? [i] : []));
    tablesByName.set(mapping.table, { mapping, columns, uuidColumns });
  }
  return tablesByName;
}

/** The project's rows of one synced table as its view answers them on the branch. */
export function syncedTableRows(tables: Tables, name: string, projectId: string, branchId: string, now: number): Row[] {
  const table = syncedTables().get(name);
  if (!table) throw new Error(`${name} is not a synced table`);
  const { mapping, columns, uuidColumns } = table;
  const derives = columns.some((c) => c.derived);
  const rows: Row[] = [];
  for (const values of mapping.rows(tables, projectId, now).values()) {
    if (!uuidColumns.every((i) => isUuidCell(values[i]))) continue;
    // By name, for the derived columns only.
    const cells: Record<string, CellValue | undefined> = {};
    if (derives) mapping.columns.forEach((column, i) => (cells[column.name] = values[i]));
    const row: Row = { project_id: projectId, branch_id: branchId };
    for (const { name, type, derived, index } of columns)
      row[name] = toClickHouse(type, derived ? derived(cells, tables) : values[index]);
    rows.push(row);
  }
  return rows;
}
