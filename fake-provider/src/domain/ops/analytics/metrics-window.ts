/**
 * The window every figure of GET /internal/metrics covers, as the real route computes it: UTC days from 30 days before
 * today through today (31 points), events counted from the first day's midnight up to tomorrow's midnight.
 */

export const DAY_MS = 86_400_000;
const WINDOW_DAYS = 30;

export interface MetricsWindow {
  /** Midnight (UTC) of the first day. */
  since: number;
  /** Midnight (UTC) after today: events at or after it are not counted. */
  untilExclusive: number;
  /** The window's days as YYYY-MM-DD, oldest first. */
  days: string[];
}

export const isoDay = (millis: number) => new Date(millis).toISOString().slice(0, 10);

export function metricsWindow(now: number): MetricsWindow {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const since = today - WINDOW_DAYS * DAY_MS;
  return {
    since,
    untilExclusive: today + DAY_MS,
    days: Array.from({ length: WINDOW_DAYS + 1 }, (_, i) => isoDay(since + i * DAY_MS)),
  };
}

export const inWindow = (w: MetricsWindow, millis: number) => millis >= w.since && millis < w.untilExclusive;

/** One point per day of the window, zero where `counts` has none. */
export function dailySeries(w: MetricsWindow, counts: ReadonlyMap<string, number>) {
  return w.days.map((date) => ({ date, activity: counts.get(date) ?? 0 }));
}

/** Adds one to `key`'s count. */
export function bump(counts: Map<string, number>, key: string, by = 1): void {
  counts.set(key, (counts.get(key) ?? 0) + by);
}
