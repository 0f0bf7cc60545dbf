import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";
import { successResponse } from "./common.ts";

/**
 * The real service's external database sync internals (hidden from its docs): the switches of its pipeline, the cron
 * endpoints that drive it (sequencer, poller), the endpoint its queue calls per tenancy (sync engine), and a status
 * report. The emulator's pipeline is fake-provider/src/domain/ops/db-sync/ (docs/emulator.md, "External database sync").
 */

export const dbSyncFuseboxBody = z.strictObject({ sequencer_enabled: z.boolean(), poller_enabled: z.boolean() });
export const dbSyncFuseboxResponse = z.object({
  ok: z.boolean(),
  sequencer_enabled: z.boolean(),
  poller_enabled: z.boolean(),
});

/** The cron endpoints' query: how long the real one keeps polling (a positive integer, in ms). */
export const dbSyncCronQuery = z.strictObject({ maxDurationMs: z.string().optional() });
export const dbSyncPollerResponse = z.object({ ok: z.boolean(), requests_processed: z.number() });
export const dbSyncSequencerResponse = z.object({ ok: z.boolean(), iterations: z.number() });

export const dbSyncEngineBody = z.strictObject({ tenancyId: z.string() });

export const dbSyncStatusQuery = z.strictObject({ scope: z.enum(["tenancy", "all"]).optional() });

const bigintString = z.string();
const sequenceStats = z.object({
  total: bigintString,
  pending: bigintString,
  null_sequence_id: bigintString,
  min_sequence_id: bigintString.nullable(),
  max_sequence_id: bigintString.nullable(),
});
const sequencerStats = z.object({
  project_users: sequenceStats,
  contact_channels: sequenceStats,
  teams: sequenceStats,
  team_members: sequenceStats,
  team_permissions: sequenceStats,
  team_invitations: sequenceStats,
  email_outboxes: sequenceStats,
  project_permissions: sequenceStats,
  notification_preferences: sequenceStats,
  refresh_tokens: sequenceStats,
  connected_accounts: sequenceStats,
  deleted_rows: sequenceStats.extend({ by_table: z.array(sequenceStats.extend({ table_name: z.string() })) }),
});
const pollerStats = z.object({
  total: bigintString,
  pending: bigintString,
  in_flight: bigintString,
  stale: bigintString,
  oldest_created_at_millis: z.number().nullable(),
  newest_created_at_millis: z.number().nullable(),
});
const mappingStats = z.object({
  mapping_id: z.string(),
  internal_min_sequence_id: bigintString.nullable(),
  internal_max_sequence_id: bigintString.nullable(),
  internal_pending_count: bigintString,
});
export const externalDatabaseStatus = z.object({
  id: z.string(),
  type: z.string(),
  connection: z.object({
    redacted: z.string().nullable(),
    host: z.string().nullable(),
    port: z.number().nullable(),
    database: z.string().nullable(),
    user: z.string().nullable(),
  }),
  status: z.enum(["ok", "error"]),
  error: z.string().nullable(),
  metadata: z.array(
    z.object({
      mapping_name: z.string(),
      last_synced_sequence_id: bigintString,
      updated_at_millis: z.number().nullable(),
    }),
  ),
  users_table: z.object({
    exists: z.boolean(),
    total_rows: bigintString.nullable(),
    min_signed_up_at_millis: z.number().nullable(),
    max_signed_up_at_millis: z.number().nullable(),
  }),
  mapping_status: z.array(
    z.object({
      mapping_id: z.string(),
      internal_max_sequence_id: bigintString.nullable(),
      last_synced_sequence_id: bigintString.nullable(),
      updated_at_millis: z.number().nullable(),
      backlog: bigintString.nullable(),
    }),
  ),
});
export const dbSyncStatusResponse = z.object({
  ok: z.boolean(),
  generated_at_millis: z.number(),
  global: z
    .object({
      tenancies_total: bigintString,
      tenancies_with_db_sync: bigintString,
      sequencer: sequencerStats,
      poller: pollerStats,
      sync_engine: z.object({ mappings: z.array(mappingStats) }),
    })
    .nullable(),
  tenancy: z.object({ id: z.string(), project_id: z.string(), branch_id: z.string() }),
  sequencer: sequencerStats,
  poller: pollerStats,
  sync_engine: z.object({ mappings: z.array(mappingStats), external_databases: z.array(externalDatabaseStatus) }),
});

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const externalDbSyncOperations = defineOperations("external-db-sync", {
  dbSyncFuseboxGet: {
    method: "GET",
    path: "/internal/external-db-sync/fusebox",
    access: "admin",
    errors: ["EXPECTED_INTERNAL_PROJECT"],
    responses: [json(dbSyncFuseboxResponse)],
  },
  dbSyncFuseboxSet: {
    method: "POST",
    path: "/internal/external-db-sync/fusebox",
    access: "admin",
    body: dbSyncFuseboxBody,
    errors: ["EXPECTED_INTERNAL_PROJECT", "SCHEMA_ERROR"],
    responses: [json(dbSyncFuseboxResponse)],
  },
  // Cron endpoints: a bearer CRON_SECRET, or an admin of the internal project.
  dbSyncPoller: {
    method: "GET",
    path: "/internal/external-db-sync/poller",
    access: "none",
    query: dbSyncCronQuery,
    errors: ["SCHEMA_ERROR"],
    responses: [json(dbSyncPollerResponse)],
  },
  dbSyncSequencer: {
    method: "GET",
    path: "/internal/external-db-sync/sequencer",
    access: "none",
    query: dbSyncCronQuery,
    errors: ["SCHEMA_ERROR"],
    responses: [json(dbSyncSequencerResponse)],
  },
  // Called by the real service's queue (QStash), signed in an `upstash-signature` header.
  dbSyncEngine: {
    method: "POST",
    path: "/internal/external-db-sync/sync-engine",
    access: "none",
    body: dbSyncEngineBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(successResponse)],
  },
  dbSyncStatus: {
    method: "GET",
    path: "/internal/external-db-sync/status",
    access: "admin",
    query: dbSyncStatusQuery,
    errors: ["EXPECTED_INTERNAL_PROJECT", "SCHEMA_ERROR"],
    responses: [json(dbSyncStatusResponse)],
  },
});
