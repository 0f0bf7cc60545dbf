/** The analytics events table (domain/store/analytics-records.ts): its bound and the one way events are added. */
import type { AnalyticsEventRecord } from "../../store/analytics-records.ts";
import type { Tables } from "../../store/store.ts";

/**
 * How many analytics events the emulator keeps; past it the oldest are dropped (a dev server under load refreshes
 * tokens thousands of times a minute, and a page open in a browser uploads its clicks for as long as it is open).
 */
export const ANALYTICS_EVENT_CAPACITY = 10_000;

/** Adds an event, dropping the oldest past the bound (every kind of event shares the one bound). */
export function appendEvent(tables: Tables, event: AnalyticsEventRecord): void {
  const events = tables.analyticsEvents;
  events.set(eventKey(event.seq), event);
  while (events.size > ANALYTICS_EVENT_CAPACITY) {
    const oldest = events.oldest();
    if (!oldest) break;
    events.delete(eventKey(oldest.seq));
  }
}

const eventKey = (seq: number) => String(seq).padStart(12, "0");
