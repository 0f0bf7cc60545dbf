import type { AnalyticsQueryRequest } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { AnalyticsEventRecord } from "../../store/analytics-records.ts";
import { QueryBudget } from "./analytics-budget.ts";
import { dateTime, evaluateAnalyticsQuery, parseAnalyticsQuery, type Row } from "./analytics-evaluate.ts";
import { PROJECT_TABLES } from "./analytics-catalog.ts";
import { analyticsErrorText, ClickHouseError } from "./analytics-errors.ts";
import type { OpContext } from "../context.ts";
import { logFinishedQuery } from "./analytics-query-timing.ts";
import { syncedTableRows } from "./analytics-synced-tables.ts";
import { outsideLock, type OutsideLock } from "../outside-lock.ts";

/** The real service's bound on an answer's rows (its ClickHouse max_result_rows). */
const MAX_RESULT_ROWS = 10_000;
/** The real service's timeout when the body names none. */
const DEFAULT_TIMEOUT_MS = 10_000;
const MAIN_BRANCH = "main";

/** An event as its row in the `events` view (the real table's columns; `data` in its snake_case form). */
function eventRow(event: AnalyticsEventRecord): Row {
  const ip = event.ipInfo;
  return {
    event_type: event.eventType,
    event_at: dateTime(event.eventAtMillis),
    data:
      event.eventType !== "$token-refresh"
        ? ((event.data ?? null) as Row[string])
        : {
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

/** A query's answer, or the known error ClickHouse's refusal becomes. */
export type AnalyticsAnswer = { result: Record<string, unknown>[]; query_id: string };

function asKnownError(error: unknown): unknown {
  return error instanceof ClickHouseError
    ? knownError("ANALYTICS_QUERY_ERROR", { error: analyticsErrorText(error) })
    : error;
}

/** The system tables the emulation has rows for (the user may read them): the tables it sees, its one row, its roles. */
const SYSTEM_ROWS: Record<string, Row[]> = {
  "system.one": [{ dummy: 0 }],
  "system.tables": Object.keys(PROJECT_TABLES).map((name) => ({
    database: "default",
    name,
    uuid: null,
    engine: "View",
    is_temporary: 0,
  })),
  "system.databases": [
    { name: "default", engine: "Atomic", data_path: null, metadata_path: null, uuid: null, comment: "" },
  ],
  "system.current_roles": [],
  "system.enabled_roles": [],
};

/** Every table the emulation has rows for, as a refusal names them. */
const SERVED = [...Object.keys(PROJECT_TABLES), ...Object.keys(SYSTEM_ROWS)];

/**
 * The project's tables a query may read: those its text names, so a query pays for the tables it reads and no more.
 * ClickHouse's table names are case-sensitive and a query reads no table it does not name; only a backslash escape
 * inside a quoted name (`` `u\sers` ``) hides one from a plain search, so with a backslash anywhere it may read any.
 */
export function tablesNamedIn(text: string): string[] {
  const escapes = text.includes("\\");
  return Object.keys(PROJECT_TABLES).filter((name) => escapes || text.includes(name));
}

/** The project's rows of the tables the query names, copied in the transaction. */
function projectTables(ctx: OpContext, projectId: string, text: string): Record<string, Row[]> {
  const out: Record<string, Row[]> = {};
  for (const name of tablesNamedIn(text)) {
    if (name === "events") {
      const events: Row[] = [];
      for (const event of ctx.tables.analyticsEvents.values()) {
        if (event.projectId === projectId) events.push(eventRow(event));
      }
      out.events = events;
    } else out[name] = syncedTableRows(ctx.tables, name, projectId, MAIN_BRANCH, ctx.now);
  }
  return out;
}

/**
 * POST /internal/analytics/query: the admin's query over the project's own events and synced tables
 * (analytics-synced-tables.ts), as the real service's row policy
 * limits it (SQL_project_id, SQL_branch_id). A query the emulator cannot run, or ClickHouse would refuse, is
 * ANALYTICS_QUERY_ERROR with the reason.
 *
 * In the transaction the project's rows of the tables the query names are copied; the query is parsed and evaluated over them once the
 * transaction has committed (outsideLock), off the store's lock and yielding as it goes (analytics-budget.ts), so a long query holds up no other
 * request: the real service's query runs in ClickHouse, beside its database, not inside it either.
 */
export function analyticsQuery(
  ctx: OpContext,
  projectId: string,
  body: AnalyticsQueryRequest,
): OutsideLock<AnalyticsAnswer> {
  if (body.include_all_branches)
    throw knownError("ANALYTICS_QUERY_ERROR", { error: "include_all_branches is not supported yet" });
  // Started now: the time the query waits for its turn and is parsed counts, as it does in ClickHouse's.
  const budget = new QueryBudget(body.timeout_ms ?? DEFAULT_TIMEOUT_MS);
  const startedAtMillis = ctx.now;
  const env = {
    tables: { ...projectTables(ctx, projectId, body.query), ...SYSTEM_ROWS },
    served: SERVED,
    params: body.params ?? {},
    nowMillis: ctx.now,
    settings: { SQL_project_id: projectId, SQL_branch_id: MAIN_BRANCH },
    maxResultRows: MAX_RESULT_ROWS,
  };
  const queryId = `${projectId}:${MAIN_BRANCH}:${uuid(ctx.random)}`;
  const evaluate = async (): Promise<AnalyticsAnswer> => {
    try {
      const query = await parseAnalyticsQuery(body.query, budget);
      return { result: await evaluateAnalyticsQuery(query, env, budget), query_id: queryId };
    } catch (error) {
      throw asKnownError(error);
    }
  };
  // A query that finished leaves its times for POST /internal/analytics/query/timing (analytics-query-timing.ts).
  return outsideLock(evaluate, (after, answer) => {
    logFinishedQuery(after, { queryId, startedAtMillis, finishedAtMillis: after.now });
    return answer;
  });
}
