import type { EndUserIpInfo } from "./account-records.ts";

/**
 * Analytics events (ops/analytics-events.ts): what the real service writes to its ClickHouse `events` table and an admin
 * reads through POST /internal/analytics/query. Only `$token-refresh` is written today: one per access token minted from
 * a session, as the real service logs one each time it does so. Kept small (one is written per sign-in and refresh):
 * the strings are the user's and session's own, and the row's JSON `data` is built when a query reads it.
 */
export interface AnalyticsEventRecord {
  /** Insertion order (the table's key, zero-padded): the oldest are dropped past the table's bound. */
  seq: number;
  eventType: "$token-refresh";
  eventAtMillis: number;
  projectId: string;
  userId: string;
  refreshTokenId: string;
  isAnonymous: boolean;
  /** Where the end user was (the session's own record of it). */
  ipInfo?: EndUserIpInfo;
}
