import { openExternalDb } from "#db-sync-client";
import type { Auth } from "../../auth/caller.ts";
import type { SequencedRow } from "../../store/db-sync-records.ts";
import type { Tables } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { outsideLock, type Step } from "../outside-lock.ts";
import { externalDatabasesOf, type ExternalDatabaseConfig } from "./db-sync-config.ts";
import { errorText, type OpenExternalDb } from "./db-sync-engine.ts";
import { dbSyncMappings } from "./db-sync-mappings.ts";
import { requireInternalProject } from "./db-sync-endpoints.ts";
import { diffMapping } from "./db-sync-sequencer.ts";
import { METADATA_TABLE } from "./db-sync-sql.ts";

/**
 * GET /internal/external-db-sync/status (internal project, admin): the sequencer's counts per source table, the waiting
 * sync requests, each mapping's sequence range, and, for the tenancy's own external databases, what each holds, read
 * live over a connection of its own (an unreachable one reports status "error" and its error, and the rest still
 * answer). With scope=all, the same counts over every project, and no external databases.
 *
 * The real counts are over its source tables' sequence columns; the emulator's over what its sequencer keeps
 * (db-sync-sequencer.ts), which only follows projects with external databases: a project without any shows its rows as
 * never sequenced (`null_sequence_id`), as they would be there before the sequencer's first run.
 */

interface SequenceStats {
  total: string;
  pending: string;
  null_sequence_id: string;
  min_sequence_id: string | null;
  max_sequence_id: string | null;
}

/** The real source tables per mapping: the status's keys and the deleted-row table names. */
const sourceTables: Record<string, { statKey: string; deletedTable: string }> = {
  users: { statKey: "project_users", deletedTable: "ProjectUser" },
  contact_channels: { statKey: "contact_channels", deletedTable: "ContactChannel" },
  teams: { statKey: "teams", deletedTable: "Team" },
  team_member_profiles: { statKey: "team_members", deletedTable: "TeamMember" },
  team_permissions: { statKey: "team_permissions", deletedTable: "TeamMemberDirectPermission" },
  team_invitations: { statKey: "team_invitations", deletedTable: "VerificationCode_TEAM_INVITATION" },
  email_outboxes: { statKey: "email_outboxes", deletedTable: "EmailOutbox" },
  project_permissions: { statKey: "project_permissions", deletedTable: "ProjectUserDirectPermission" },
  notification_preferences: { statKey: "notification_preferences", deletedTable: "UserNotificationPreference" },
  refresh_tokens: { statKey: "refresh_tokens", deletedTable: "ProjectUserRefreshToken" },
  connected_accounts: { statKey: "connected_accounts", deletedTable: "ProjectUserOAuthAccount" },
};

/** Counts being summed over projects: totals and the sequence range. */
class Counts {
  total = 0;
  pending = 0;
  unsequenced = 0;
  min: number | null = null;
  max: number | null = null;
  see(sequenceId: number) {
    this.min = this.min === null ? sequenceId : Math.min(this.min, sequenceId);
    this.max = this.max === null ? sequenceId : Math.max(this.max, sequenceId);
  }
  stats(): SequenceStats {
    return {
      total: String(this.total),
      pending: String(this.pending),
      null_sequence_id: String(this.unsequenced),
      min_sequence_id: this.min === null ? null : String(this.min),
      max_sequence_id: this.max === null ? null : String(this.max),
    };
  }
}

interface InternalStats {
  live: Map<string, Counts>;
  deleted: Map<string, Counts>;
}

function internalStats(tables: Tables, projectIds: string[], now: number): InternalStats {
  const live = new Map(dbSyncMappings.map((m) => [m.id, new Counts()]));
  const deleted = new Map(dbSyncMappings.map((m) => [m.id, new Counts()]));
  for (const projectId of projectIds) {
    const state = tables.dbSyncStates.get(projectId);
    for (const mapping of dbSyncMappings) {
      const old = state?.mappings[mapping.id] ?? {};
      const diff = diffMapping(tables, mapping, old, projectId, now);
      const l = live.get(mapping.id)!;
      const d = deleted.get(mapping.id)!;
      l.total += diff.total;
      l.pending += diff.added.length + diff.changed.length;
      l.unsequenced += diff.added.length;
      d.total += diff.removed.length;
      d.pending += diff.removed.length;
      d.unsequenced += diff.removed.length;
      const current = mapping.rows(tables, projectId, now);
      for (const [key, row] of Object.entries(old) as [string, SequencedRow][]) {
        if (row.deleted) {
          d.total++;
          d.see(row.sequenceId);
        } else if (current.has(key)) l.see(row.sequenceId);
      }
    }
  }
  return { live, deleted };
}

const minOf = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : String(Math.min(Number(a), Number(b)));
const maxOf = (a: string | null, b: string | null) =>
  a === null ? b : b === null ? a : String(Math.max(Number(a), Number(b)));

type StatKey =
  | "project_users"
  | "contact_channels"
  | "teams"
  | "team_members"
  | "team_permissions"
  | "team_invitations"
  | "email_outboxes"
  | "project_permissions"
  | "notification_preferences"
  | "refresh_tokens"
  | "connected_accounts";
type SequencerSection = Record<StatKey, SequenceStats> & {
  deleted_rows: SequenceStats & { by_table: (SequenceStats & { table_name: string })[] };
};

function sequencerSection(s: InternalStats): SequencerSection {
  const section: Record<string, unknown> = {};
  for (const mapping of dbSyncMappings) section[sourceTables[mapping.id]!.statKey] = s.live.get(mapping.id)!.stats();
  const all = new Counts();
  const byTable: (SequenceStats & { table_name: string })[] = [];
  for (const mapping of dbSyncMappings) {
    const d = s.deleted.get(mapping.id)!;
    if (d.total === 0) continue;
    all.total += d.total;
    all.pending += d.pending;
    all.unsequenced += d.unsequenced;
    if (d.min !== null) all.see(d.min);
    if (d.max !== null) all.see(d.max);
    byTable.push({ table_name: sourceTables[mapping.id]!.deletedTable, ...d.stats() });
  }
  byTable.sort((a, b) => a.table_name.localeCompare(b.table_name));
  return { ...(section as Record<StatKey, SequenceStats>), deleted_rows: { ...all.stats(), by_table: byTable } };
}

function mappingsSection(s: InternalStats) {
  return dbSyncMappings.map((mapping) => {
    const l = s.live.get(mapping.id)!.stats();
    const d = s.deleted.get(mapping.id)!.stats();
    return {
      mapping_id: mapping.id,
      internal_min_sequence_id: minOf(l.min_sequence_id, d.min_sequence_id),
      internal_max_sequence_id: maxOf(l.max_sequence_id, d.max_sequence_id),
      internal_pending_count: String(Number(l.pending) + Number(d.pending)),
    };
  });
}

function pollerSection(tables: Tables, projectIds: string[]) {
  const wanted = new Set(projectIds);
  const times = [...tables.dbSyncRequests.values()]
    .filter((r) => wanted.has(r.projectId))
    .map((r) => r.createdAtMillis);
  return {
    total: String(times.length),
    pending: String(times.length),
    // A request is taken and gone in one transaction: none is ever in flight or stale.
    in_flight: "0",
    stale: "0",
    oldest_created_at_millis: times.length > 0 ? Math.min(...times) : null,
    newest_created_at_millis: times.length > 0 ? Math.max(...times) : null,
  };
}

/** The connection string's parts, the password hidden; nulls for one that is not a URL. */
export function connectionParts(connectionString: string | null) {
  const none = { redacted: null, host: null, port: null, database: null, user: null };
  if (!connectionString) return none;
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return none;
  }
  const user = url.username ? decodeURIComponent(url.username) : null;
  const port = url.port ? Number.parseInt(url.port, 10) : null;
  const auth = url.username ? `${url.username}:${url.password ? "***" : ""}@` : "";
  return {
    redacted: `${url.protocol}//${auth}${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}${url.search}`,
    host: url.hostname || null,
    port: port !== null && Number.isFinite(port) ? port : null,
    database: url.pathname ? url.pathname.replace(/^\//, "") : null,
    user,
  };
}

type MappingMax = { mapping_id: string; internal_max_sequence_id: string | null }[];

const toMillis = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** One external database as it is now: reachable or not, its progress rows, its users table. */
export async function externalDatabaseStatus(
  id: string,
  config: ExternalDatabaseConfig,
  mappings: MappingMax,
  open: OpenExternalDb,
) {
  const connection = connectionParts(config.connectionString);
  const unknownProgress = mappings.map((m) => ({
    ...m,
    last_synced_sequence_id: null,
    updated_at_millis: null,
    backlog: null,
  }));
  const failed = (
    error: string,
    usersExists = false,
    metadata: { mapping_name: string; last_synced_sequence_id: string; updated_at_millis: number | null }[] = [],
  ) => ({
    id,
    type: config.type,
    connection,
    status: "error" as const,
    error,
    metadata,
    users_table: {
      exists: usersExists,
      total_rows: null,
      min_signed_up_at_millis: null,
      max_signed_up_at_millis: null,
    },
    mapping_status: unknownProgress,
  });
  if (config.type !== "postgres") return failed(`Unsupported database type: ${config.type}`);
  if (!config.connectionString) return failed("Missing connection string");
  let db;
  try {
    db = await open(config.connectionString);
  } catch (error) {
    return failed(errorText(error));
  }
  const exists = async (table: string) =>
    (
      await db.query(
        `SELECT EXISTS (SELECT FROM information_schema.tables WHERE table_schema = 'public' AND table_name = $1) AS "exists"`,
        [table],
      )
    ).rows[0]?.exists === true;
  let metadata: { mapping_name: string; last_synced_sequence_id: string; updated_at_millis: number | null }[] = [];
  let usersExists = false;
  let users: Record<string, unknown> | undefined;
  try {
    const metadataExists = await exists(METADATA_TABLE);
    usersExists = await exists("users");
    if (metadataExists) {
      const rows = await db.query(
        `SELECT "mapping_name", "last_synced_sequence_id"::text AS "last", (EXTRACT(EPOCH FROM "updated_at") * 1000)::float8 AS "at"
         FROM "${METADATA_TABLE}" ORDER BY "mapping_name" ASC`,
      );
      metadata = rows.rows.map((r) => ({
        mapping_name: String(r.mapping_name),
        last_synced_sequence_id: r.last === null ? "-1" : String(r.last),
        updated_at_millis: toMillis(r.at),
      }));
    }
    if (usersExists) {
      users = (
        await db.query(
          `SELECT COUNT(*)::text AS "total", (EXTRACT(EPOCH FROM MIN("signed_up_at")) * 1000)::float8 AS "min",
             (EXTRACT(EPOCH FROM MAX("signed_up_at")) * 1000)::float8 AS "max" FROM "users"`,
        )
      ).rows[0];
    }
  } catch (error) {
    return failed(errorText(error), usersExists, metadata);
  } finally {
    await db.end().catch(() => undefined);
  }
  const progress = new Map(metadata.map((m) => [m.mapping_name, m]));
  return {
    id,
    type: config.type,
    connection,
    status: "ok" as const,
    error: null,
    metadata,
    users_table: {
      exists: usersExists,
      total_rows: users ? String(users.total) : null,
      min_signed_up_at_millis: toMillis(users?.min),
      max_signed_up_at_millis: toMillis(users?.max),
    },
    mapping_status: mappings.map((m) => {
      const p = progress.get(m.mapping_id);
      const last = p?.last_synced_sequence_id ?? null;
      return {
        ...m,
        last_synced_sequence_id: last,
        updated_at_millis: p?.updated_at_millis ?? null,
        backlog:
          m.internal_max_sequence_id !== null && last !== null
            ? String(BigInt(m.internal_max_sequence_id) - BigInt(last))
            : null,
      };
    }),
  };
}

export function dbSyncStatus(
  ctx: OpContext,
  auth: Auth,
  scope: "tenancy" | "all",
  open: OpenExternalDb = openExternalDb,
) {
  requireInternalProject(auth);
  const projectId = auth.project.id;
  const all = scope === "all";
  const projectIds = all ? [...ctx.tables.projects.values()].map((p) => p.id) : [projectId];
  const stats = internalStats(ctx.tables, projectIds, ctx.now);
  const mappings = mappingsSection(stats);
  const sequencer = sequencerSection(stats);
  const poller = pollerSection(ctx.tables, projectIds);
  const global = all
    ? {
        tenancies_total: String(projectIds.length),
        tenancies_with_db_sync: String(
          projectIds.filter((id) => Object.keys(externalDatabasesOf(ctx, id)).length > 0).length,
        ),
        sequencer,
        poller,
        sync_engine: { mappings },
      }
    : null;
  const databases = all ? [] : Object.entries(externalDatabasesOf(ctx, projectId));
  const maxima = mappings.map((m) => ({
    mapping_id: m.mapping_id,
    internal_max_sequence_id: m.internal_max_sequence_id,
  }));
  const generatedAt = ctx.now;
  return outsideLock(
    () => Promise.all(databases.map(([id, config]) => externalDatabaseStatus(id, config, maxima, open))),
    (_ctx, externalDatabases) => ({
      ok: true as const,
      generated_at_millis: generatedAt,
      global,
      tenancy: { id: projectId, project_id: projectId, branch_id: auth.branchId },
      sequencer,
      poller,
      sync_engine: { mappings, external_databases: externalDatabases },
    }),
  ) satisfies Step<unknown>;
}
