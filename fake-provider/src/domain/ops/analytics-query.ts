import type { AnalyticsQueryRequest } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { knownError } from "../errors/known-error.ts";
import type { AnalyticsEventRecord } from "../store/analytics-records.ts";
import { AnalyticsQueryError, dateTime, runAnalyticsQuery, SqlSyntaxError, type Row } from "./analytics-evaluate.ts";
import type { OpContext } from "./context.ts";
import { logFinishedQuery } from "./analytics-query-timing.ts";

/** The real service's bound on an answer's rows (its ClickHouse max_result_rows). */
const MAX_RESULT_ROWS = 10_000;
const MAIN_BRANCH = "main";

/** An event as its row in the `events` view (the real table's columns; `data` in its snake_case form). */
function eventRow(event: AnalyticsEventRecord): Row {
  const ip = event.ipInfo;
  return {
    event_type: event.eventType,
    event_at: dateTime(event.eventAtMillis),
    data: event.eventType !== "$token-refresh" ? (event.data ?? null) as Row[string] : {
      refresh_token_id: event.refreshTokenId,
      is_anonymous: event.isAnonymous ?? false,
      ip_info: ip
        ? {
            ip: ip.ip,
            country_code: ip.countryCode ?? null,
            region_code: ip.regionCode ?? null,
            city_name: ip.cityName ?? null,
            latitude: ip.latitude ?? null,
            longitude: ip.longitude ?? null,
            tz_identifier: ip.tzIdentifier ?? null,
            is_trusted: false,
          }
        : null,
    },
    project_id: event.projectId,
    branch_id: MAIN_BRANCH,
    user_id: event.userId,
    team_id: null,
    refresh_token_id: event.refreshTokenId,
    session_replay_id: event.sessionReplayId ?? null,
    session_replay_segment_id: event.sessionReplaySegmentId ?? null,
    created_at: dateTime(event.eventAtMillis),
  };
}

/**
 * POST /internal/analytics/query: the admin's query over the project's own events, as the real service's row policy
 * limits it (SQL_project_id, SQL_branch_id). A query the emulator cannot run, or ClickHouse would refuse, is
 * ANALYTICS_QUERY_ERROR with the reason.
 */
export function analyticsQuery(ctx: OpContext, projectId: string, body: AnalyticsQueryRequest): { result: Record<string, unknown>[]; query_id: string } {
  if (body.include_all_branches) throw knownError("ANALYTICS_QUERY_ERROR", { error: "include_all_branches is not supported yet" });
  const startedAt = ctx.now;
  const events: Row[] = [];
  for (const event of ctx.tables.analyticsEvents.values()) {
    if (event.projectId === projectId) events.push(eventRow(event));
  }
  try {
    const result = runAnalyticsQuery(body.query, {
      tables: { events },
      params: body.params ?? {},
      nowMillis: ctx.now,
      settings: { SQL_project_id: projectId, SQL_branch_id: MAIN_BRANCH },
      maxResultRows: MAX_RESULT_ROWS,
    });
    const queryId = `${projectId}:${MAIN_BRANCH}:${uuid(ctx.random)}`;
    logFinishedQuery(ctx, { queryId, startedAtMillis: startedAt, finishedAtMillis: ctx.now });
    return { result, query_id: queryId };
  } catch (error) {
    if (error instanceof SqlSyntaxError || error instanceof AnalyticsQueryError) throw knownError("ANALYTICS_QUERY_ERROR", { error: error.message });
    throw error;
  }
}
