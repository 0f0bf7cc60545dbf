import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { openExternalDb } from "#db-sync-client";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import { refusal } from "../../errors/refusals.ts";
import type { DbSyncFuseboxRecord } from "../../store/db-sync-records.ts";
import type { OpContext } from "../context.ts";
import { CRON_SECRET } from "../emails/email-cron.ts";
import { outsideLock, type Step } from "../outside-lock.ts";
import { runSyncJob, syncJobFor, type SyncJob } from "./db-sync-engine.ts";
import { fuseboxOf, setFusebox } from "./db-sync-fusebox.ts";
import { runSequencer } from "./db-sync-sequencer.ts";

/**
 * The operations of the six /internal/external-db-sync/* routes. The real cron endpoints keep polling for
 * `maxDurationMs` (three minutes by default) under its scheduler; outside that deployment the emulator runs one pass
 * and answers at once: the sequencer once over every project with external databases, the poller every waiting sync
 * (each sync awaited), so a test or a tool can drive the pipeline step by step.
 */

export interface FuseboxAnswer {
  ok: true;
  sequencer_enabled: boolean;
  poller_enabled: boolean;
}

const fuseboxAnswer = (f: DbSyncFuseboxRecord): FuseboxAnswer => ({
  ok: true,
  sequencer_enabled: f.sequencerEnabled,
  poller_enabled: f.pollerEnabled,
});

export function requireInternalProject(auth: Auth): void {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw knownError("EXPECTED_INTERNAL_PROJECT");
}

export function getDbSyncFusebox(ctx: OpContext, auth: Auth): FuseboxAnswer {
  requireInternalProject(auth);
  return fuseboxAnswer(fuseboxOf(ctx.tables));
}

export function setDbSyncFusebox(
  ctx: OpContext,
  auth: Auth,
  body: { sequencer_enabled: boolean; poller_enabled: boolean },
): FuseboxAnswer {
  requireInternalProject(auth);
  return fuseboxAnswer(
    setFusebox(ctx, { sequencerEnabled: body.sequencer_enabled, pollerEnabled: body.poller_enabled }),
  );
}

/** The cron endpoints' checks, in the real order: the caller (an internal admin, or the bearer secret), then the query. */
function requireCron(auth: Auth | null, authorization: string | null, maxDurationMs: string | undefined): void {
  const internalAdmin = auth?.type === "admin" && auth.project.id === INTERNAL_PROJECT_ID;
  if (!internalAdmin && authorization !== `Bearer ${CRON_SECRET}`) throw refusal("unauthorized");
  if (!maxDurationMs) return;
  const parsed = Number.parseInt(maxDurationMs, 10);
  if (!Number.isFinite(parsed) || parsed <= 0) throw refusal("maxDurationMsNotPositive");
}

export function runDbSyncSequencer(
  ctx: OpContext,
  auth: Auth | null,
  authorization: string | null,
  maxDurationMs: string | undefined,
): { ok: true; iterations: number } {
  requireCron(auth, authorization, maxDurationMs);
  runSequencer(ctx);
  return { ok: true, iterations: 1 };
}

/**
 * Takes every waiting sync request (unless the fusebox turned the poller off) and what each sync sends, in one
 * transaction; the requests are gone once taken, as the real poller deletes them once handed to its queue.
 */
export function claimSyncJobs(ctx: OpContext): SyncJob[] {
  if (!fuseboxOf(ctx.tables).pollerEnabled) return [];
  const requests = [...ctx.tables.dbSyncRequests.values()].sort((a, b) => a.createdAtMillis - b.createdAtMillis);
  for (const r of requests) ctx.tables.dbSyncRequests.delete(r.projectId);
  return requests.map((r) => syncJobFor(ctx.tables, r.projectId));
}

export function runDbSyncPoller(
  ctx: OpContext,
  auth: Auth | null,
  authorization: string | null,
  maxDurationMs: string | undefined,
): Step<{ ok: true; requests_processed: number }> {
  requireCron(auth, authorization, maxDurationMs);
  const jobs = claimSyncJobs(ctx);
  return outsideLock(
    async () => {
      for (const job of jobs) await runSyncJob(job, openExternalDb);
      return jobs.length;
    },
    (_ctx, processed) => ({ ok: true as const, requests_processed: processed }),
  );
}

/**
 * POST /internal/external-db-sync/sync-engine: the signature first (the real service in development takes the
 * "test-bypass" value; the emulator has no queue signing keys, so any other value fails verification), then the
 * tenancy (here the project): one that is gone answers success without syncing, as the real one does.
 */
export function runDbSyncEngine(ctx: OpContext, signature: string, tenancyId: string): Step<{ success: true }> {
  if (signature === "") throw refusal("upstashSignatureRequired");
  if (signature !== "test-bypass") throw refusal("upstashSignatureInvalid");
  if (!ctx.tables.projects.has(tenancyId)) return { success: true };
  const job = syncJobFor(ctx.tables, tenancyId);
  return outsideLock(
    () => runSyncJob(job, openExternalDb),
    () => ({ success: true as const }),
  );
}
