import type { AnalyticsEventBatchRequest } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import type { AnalyticsEventRecord } from "../../store/analytics-records.ts";
import { nextSequence } from "../../store/store.ts";
import { appendEvent } from "./event-log.ts";
import type { OpContext } from "../context.ts";
import { analyticsEnabled, countReplayClicks, recentReplayOf } from "./session-replays.ts";
import { refusal } from "../../errors/refusals.ts";

export { ANALYTICS_EVENT_CAPACITY } from "./event-log.ts";

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
  appendEvent(ctx.tables, event);
}

/**
 * POST /analytics/events/batch: the client SDK's auto-captured page views and clicks, stored as events of the user's
 * session (and of its replay, when one is being recorded). Needs the analytics app, then a signed-in user.
 */
export function uploadAnalyticsEvents(
  ctx: OpContext,
  auth: Auth,
  body: AnalyticsEventBatchRequest,
): { inserted: number } {
  if (!analyticsEnabled(ctx, auth)) throw knownError("ANALYTICS_NOT_ENABLED");
  if (!auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  if (!auth.sessionId) throw refusal("refreshTokenRequiredAnalyticsEvents");
  const replay = recentReplayOf(ctx, auth.project.id, auth.sessionId);
  for (const uploaded of body.events) {
    appendEvent(ctx.tables, {
      seq: nextSequence(ctx.tables, "analyticsEvents"),
      eventType: uploaded.event_type,
      eventAtMillis: uploaded.event_at_ms,
      projectId: auth.project.id,
      userId: auth.user.id,
      refreshTokenId: auth.sessionId,
      data: withoutLoneSurrogates(uploaded.data),
      sessionReplayId: replay?.id ?? null,
      sessionReplaySegmentId: body.session_replay_segment_id,
    });
  }
  if (replay) countReplayClicks(ctx, replay, body.events.filter((e) => e.event_type === "$click").length);
  return { inserted: body.events.length };
}

/**
 * Half an emoji (a surrogate cut by the SDK's truncation of long texts) cannot be stored as JSON text; the real service
 * replaces it with U+FFFD, so a query reads the same.
 */
function withoutLoneSurrogates(value: unknown): unknown {
  if (typeof value === "string")
    return value.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
  if (Array.isArray(value)) return value.map(withoutLoneSurrogates);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutLoneSurrogates(v)]));
  return value;
}
