import type { EndUserIpInfo } from "./account-records.ts";

/**
 * Analytics events (domain/ops/analytics/analytics-events.ts): what the real service writes to its ClickHouse `events` table and an admin
 * reads through POST /internal/analytics/query: a `$token-refresh` per access token minted from a session, as the real
 * service logs one each time it does so, a `$sign-up-rule-trigger` per sign-up rule that matched a sign-up (no user or
 * session: the user does not exist yet), and the `$page-view` / `$click` events the client SDK uploads in batches.
 * Kept small (one is written per sign-in and refresh): the strings are the user's and session's own, and a
 * `$token-refresh` row's JSON `data` is built when a query reads it.
 */
export interface AnalyticsEventRecord {
  /** Insertion order (the table's key, zero-padded): the oldest are dropped past the table's bound. */
  seq: number;
  eventType: "$token-refresh" | "$sign-up-rule-trigger" | "$page-view" | "$click";
  eventAtMillis: number;
  projectId: string;
  userId: string | null;
  refreshTokenId: string | null;
  /** `$token-refresh`: whether the user was anonymous, and where the end user was (the session's own record of it). */
  isAnonymous?: boolean;
  ipInfo?: EndUserIpInfo;
  /**
   * `$page-view` / `$click`: the event's data as uploaded, and the replay and segment it was recorded in;
   * `$sign-up-rule-trigger`: the data the real service writes (rule_id, action, email, auth_method, oauth_provider).
   */
  data?: unknown;
  sessionReplayId?: string | null;
  sessionReplaySegmentId?: string;
}

/**
 * A finished analytics query (POST /internal/analytics/query), as ClickHouse's query log keeps it for the timing route
 * (domain/ops/analytics/analytics-query-timing.ts): keyed by the query id the query answered.
 */
export interface AnalyticsQueryLogRecord {
  queryId: string;
  startedAtMillis: number;
  finishedAtMillis: number;
}
