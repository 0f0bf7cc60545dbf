import { DEFAULT_BRANCH_ID } from "@authsim/sdk/contract";
import type { OpContext } from "../context.ts";
import type { AnalyticsQueryLogRecord } from "../../store/analytics-records.ts";
import { knownError } from "../../errors/known-error.ts";

/**
 * POST /internal/analytics/query/timing: how long a finished analytics query took, read from the query log as the real
 * service reads ClickHouse's. A query id outside the caller's project and branch, or one the log does not hold (never
 * run, failed, or dropped from the bounded log), is ITEM_NOT_FOUND. The times are the injected clock's: an emulated
 * query runs within one instant of it, so they read 0 unless the clock moved.
 */

/** The most finished queries the log keeps (the oldest go first). */
export const QUERY_LOG_CAPACITY = 1_000;

export function logFinishedQuery(ctx: OpContext, record: AnalyticsQueryLogRecord): void {
  const log = ctx.tables.analyticsQueryLog;
  log.set(record.queryId, record);
  while (log.size > QUERY_LOG_CAPACITY) {
    const oldest = log.oldest();
    if (!oldest) break;
    log.delete(oldest.queryId);
  }
}

export function analyticsQueryTiming(ctx: OpContext, projectId: string, queryId: string) {
  const found = queryId.startsWith(`${projectId}:${DEFAULT_BRANCH_ID}:`)
    ? ctx.tables.analyticsQueryLog.get(queryId)
    : undefined;
  if (!found) throw knownError("ITEM_NOT_FOUND", { item_id: queryId });
  const elapsed = found.finishedAtMillis - found.startedAtMillis;
  return { stats: { cpu_time: elapsed, wall_clock_time: elapsed } };
}
