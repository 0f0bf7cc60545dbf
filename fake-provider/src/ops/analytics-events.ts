import type { UserRecord } from "../store/records.ts";
import type { AnalyticsEventRecord } from "../store/analytics-records.ts";
import { nextSequence } from "../store/store.ts";
import type { OpContext } from "./context.ts";

/**
 * How many analytics events the emulator keeps; past it the oldest are dropped (a dev server under load refreshes
 * tokens thousands of times a minute, and the events are read, not accumulated: ops/analytics-query.ts).
 */
export const ANALYTICS_EVENT_CAPACITY = 10_000;

/**
 * A `$token-refresh` event: the real service writes one each time it mints an access token from a session (sign-up,
 * sign-in, the refresh grant), with the session's refresh-token id and where the end user was.
 */
export function recordTokenRefresh(ctx: OpContext, user: UserRecord, sessionId: string): void {
  const seq = nextSequence(ctx.tables, "analyticsEvents");
  const event: AnalyticsEventRecord = {
    seq,
    eventType: "$token-refresh",
    eventAtMillis: ctx.now,
    projectId: user.projectId,
    userId: user.id,
    refreshTokenId: sessionId,
    isAnonymous: user.isAnonymous,
    ...(ctx.endUser ? { ipInfo: ctx.endUser } : {}),
  };
  const events = ctx.tables.analyticsEvents;
  events.set(eventKey(seq), event);
  while (events.size > ANALYTICS_EVENT_CAPACITY) {
    const oldest = events.values().next().value;
    if (!oldest) break;
    events.delete(eventKey(oldest.seq));
  }
}

const eventKey = (seq: number) => String(seq).padStart(12, "0");
