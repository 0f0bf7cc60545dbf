import type { AnalyticsEventRecord } from "../../store/analytics-records.ts";
import type { OpContext } from "../context.ts";
import { bump, dailySeries, inWindow, isoDay, type MetricsWindow } from "./metrics-window.ts";

/**
 * The web-analytics figures of GET /internal/metrics (page views, clicks, visitors, referrers), read as the real route
 * reads them from the `$page-view` and `$click` events the client SDK uploads. Anonymous visitors are left out unless
 * asked for: an event is anonymous by its own `data.is_anonymous`, else by its user's latest `$token-refresh`.
 */

const TOP_REFERRERS = 100;

interface WebEvent {
  type: "$page-view" | "$click";
  at: number;
  userId: string;
  referrer: string | null;
}

/** The window's page views and clicks of users counted by `includeAnonymous`. */
function webEventsOf(ctx: OpContext, projectId: string, w: MetricsWindow, includeAnonymous: boolean): WebEvent[] {
  // Every event read here is a user's (a sign-up rule's trigger event has no user).
  const events = [...ctx.tables.analyticsEvents.values()].filter(
    (e): e is AnalyticsEventRecord & { userId: string } => e.projectId === projectId && e.userId !== null,
  );
  const latestAnonymous = new Map<string, { at: number; anonymous: boolean }>();
  for (const e of events) {
    if (e.eventType !== "$token-refresh" || e.eventAtMillis >= w.untilExclusive) continue;
    const seen = latestAnonymous.get(e.userId);
    if (!seen || e.eventAtMillis >= seen.at)
      latestAnonymous.set(e.userId, { at: e.eventAtMillis, anonymous: !!e.isAnonymous });
  }
  const anonymous = (e: AnalyticsEventRecord & { userId: string }) => {
    const own = dataField(e, "is_anonymous");
    if (own !== undefined && own !== null) return own === true || own === 1 || own === "1" || own === "true";
    return latestAnonymous.get(e.userId)?.anonymous ?? false;
  };
  const out: WebEvent[] = [];
  for (const e of events) {
    if ((e.eventType !== "$page-view" && e.eventType !== "$click") || !inWindow(w, e.eventAtMillis)) continue;
    if (!includeAnonymous && anonymous(e)) continue;
    const referrer = dataField(e, "referrer");
    out.push({
      type: e.eventType,
      at: e.eventAtMillis,
      userId: e.userId,
      referrer: typeof referrer === "string" && referrer !== "" ? referrer : null,
    });
  }
  return out;
}

function dataField(e: AnalyticsEventRecord, key: string): unknown {
  const data = e.data;
  return data !== null && typeof data === "object" && !Array.isArray(data)
    ? (data as Record<string, unknown>)[key]
    : undefined;
}

export function webAnalytics(ctx: OpContext, projectId: string, w: MetricsWindow, includeAnonymous: boolean) {
  const events = webEventsOf(ctx, projectId, w, includeAnonymous);
  const pageViews = new Map<string, number>();
  const clicks = new Map<string, number>();
  const visitorsByDay = new Map<string, Set<string>>();
  const visitorsByReferrer = new Map<string, Set<string>>();
  const visitors = new Set<string>();
  for (const e of events) {
    const day = isoDay(e.at);
    if (e.type === "$click") {
      bump(clicks, day);
      continue;
    }
    bump(pageViews, day);
    visitorsByDay.set(day, (visitorsByDay.get(day) ?? new Set()).add(e.userId));
    visitors.add(e.userId);
    // No referrer (or an empty one) is a direct visit.
    const referrer = e.referrer ?? "(direct)";
    visitorsByReferrer.set(referrer, (visitorsByReferrer.get(referrer) ?? new Set()).add(e.userId));
  }
  return {
    daily_page_views: dailySeries(w, pageViews),
    daily_clicks: dailySeries(w, clicks),
    daily_visitors: dailySeries(w, new Map([...visitorsByDay].map(([day, users]) => [day, users.size]))),
    visitors: visitors.size,
    top_referrers: [...visitorsByReferrer]
      .map(([referrer, users]) => ({ referrer, visitors: users.size }))
      .sort((a, b) => b.visitors - a.visitors || (a.referrer < b.referrer ? -1 : 1))
      .slice(0, TOP_REFERRERS),
  };
}
