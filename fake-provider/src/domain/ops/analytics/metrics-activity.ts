import type { AnalyticsEventRecord } from "../../store/analytics-records.ts";
import type { OpContext } from "../context.ts";
import { bump, DAY_MS, dailySeries, inWindow, isoDay, type MetricsWindow } from "./metrics-window.ts";

/**
 * The user-activity figures of GET /internal/metrics, read as the real route reads them: from the `$token-refresh`
 * analytics events (one per access token minted from a session), not from the users or sessions tables. So a deleted
 * user's activity still counts, and a user is anonymous or not as they were when the token was minted (the event's
 * `is_anonymous`), which is what the real service's ClickHouse queries see.
 */

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A `$token-refresh` event: always a user's. */
export type TokenRefresh = AnalyticsEventRecord & { eventType: "$token-refresh"; userId: string };

export function tokenRefreshesOf(ctx: OpContext, projectId: string): TokenRefresh[] {
  return [...ctx.tables.analyticsEvents.values()].filter(
    (e): e is TokenRefresh => e.eventType === "$token-refresh" && e.projectId === projectId && e.userId !== null,
  );
}

/** The real queries' `{includeAnonymous} = 1 OR coalesce(data.is_anonymous, 0) = 0`. */
const counted = (includeAnonymous: boolean) => (e: TokenRefresh) => includeAnonymous || !e.isAnonymous;

export interface ActivitySplit {
  total: { date: string; activity: number }[];
  new: { date: string; activity: number }[];
  retained: { date: string; activity: number }[];
  reactivated: { date: string; activity: number }[];
}

/** Distinct users with a token minted each day of the window. */
export function dailyActiveUsers(refreshes: TokenRefresh[], w: MetricsWindow, includeAnonymous: boolean) {
  const usersByDay = new Map<string, Set<string>>();
  for (const e of refreshes.filter(counted(includeAnonymous))) {
    if (!inWindow(w, e.eventAtMillis)) continue;
    const day = isoDay(e.eventAtMillis);
    usersByDay.set(day, (usersByDay.get(day) ?? new Set()).add(e.userId));
  }
  return dailySeries(w, new Map([...usersByDay].map(([day, users]) => [day, users.size])));
}

/**
 * Each day's active users split as the real route splits them: new (their first active day ever is that day),
 * retained (also active the day before), reactivated (active before, but not the day before). "Before" looks at every
 * event until the window's end; "the day before" only at days inside the window.
 */
export function dailyActiveSplit(
  refreshes: TokenRefresh[],
  w: MetricsWindow,
  includeAnonymous: boolean,
): ActivitySplit {
  const firstDay = new Map<string, string>();
  const activeDays = new Map<string, Set<string>>();
  for (const e of refreshes.filter(counted(includeAnonymous))) {
    if (e.eventAtMillis >= w.untilExclusive) continue;
    const day = isoDay(e.eventAtMillis);
    const first = firstDay.get(e.userId);
    if (first === undefined || day < first) firstDay.set(e.userId, day);
    if (e.eventAtMillis >= w.since) activeDays.set(e.userId, (activeDays.get(e.userId) ?? new Set()).add(day));
  }
  const total = new Map<string, number>();
  const fresh = new Map<string, number>();
  const retained = new Map<string, number>();
  const reactivated = new Map<string, number>();
  for (const [userId, days] of activeDays) {
    for (const day of days) {
      bump(total, day);
      const dayBefore = isoDay(Date.parse(day) - DAY_MS);
      if (firstDay.get(userId) === day) bump(fresh, day);
      else if (days.has(dayBefore)) bump(retained, day);
      else bump(reactivated, day);
    }
  }
  return {
    total: dailySeries(w, total),
    new: dailySeries(w, fresh),
    retained: dailySeries(w, retained),
    reactivated: dailySeries(w, reactivated),
  };
}

/** Monthly active users: distinct (lower-cased, trimmed) user ids that are v4 UUIDs, with a token minted in the window. */
export function monthlyActiveUsers(refreshes: TokenRefresh[], w: MetricsWindow, includeAnonymous: boolean) {
  const users = new Set<string>();
  for (const e of refreshes.filter(counted(includeAnonymous))) {
    const id = e.userId.trim().toLowerCase();
    if (inWindow(w, e.eventAtMillis) && UUID_V4.test(id)) users.add(id);
  }
  return users.size;
}

/** Users with a token minted in the last five minutes. */
export function onlineUsers(refreshes: TokenRefresh[], w: MetricsWindow, now: number, includeAnonymous: boolean) {
  const since = now - 5 * 60_000;
  return new Set(
    refreshes
      .filter(counted(includeAnonymous))
      .filter((e) => e.eventAtMillis >= since && e.eventAtMillis < w.untilExclusive)
      .map((e) => e.userId),
  ).size;
}

/**
 * Users per country: each user counted once, in the country of their latest token that knew one (events from every
 * time, as the real query has no window here).
 */
export function usersByCountry(refreshes: TokenRefresh[], includeAnonymous: boolean): Record<string, number> {
  const latest = new Map<string, { at: number; country: string }>();
  for (const e of refreshes.filter(counted(includeAnonymous))) {
    const country = e.ipInfo?.countryCode;
    if (!country) continue;
    const seen = latest.get(e.userId);
    if (!seen || e.eventAtMillis >= seen.at) latest.set(e.userId, { at: e.eventAtMillis, country });
  }
  const byCountry = new Map<string, number>();
  for (const { country } of latest.values()) bump(byCountry, country);
  return Object.fromEntries([...byCountry].sort((a, b) => b[1] - a[1]));
}

/** The (country, region) pair with most distinct users minting tokens in the window, or null when there is none. */
export function topRegion(refreshes: TokenRefresh[], w: MetricsWindow, includeAnonymous: boolean) {
  const regions = new Map<string, { country_code: string | null; region_code: string | null; users: Set<string> }>();
  for (const e of refreshes.filter(counted(includeAnonymous))) {
    if (!inWindow(w, e.eventAtMillis)) continue;
    const country = e.ipInfo?.countryCode ?? null;
    const region = e.ipInfo?.regionCode ?? null;
    const key = JSON.stringify([country, region]);
    const entry = regions.get(key) ?? { country_code: country, region_code: region, users: new Set<string>() };
    regions.set(key, entry);
    entry.users.add(e.userId);
  }
  const top = [...regions.values()].sort((a, b) => b.users.size - a.users.size)[0];
  return top ? { country_code: top.country_code, region_code: top.region_code, count: top.users.size } : null;
}
