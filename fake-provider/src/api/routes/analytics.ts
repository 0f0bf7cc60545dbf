import { uploadAnalyticsEvents } from "../../domain/ops/analytics/analytics-events.ts";
import { analyticsQuery } from "../../domain/ops/analytics/analytics-query.ts";
import { analyticsQueryTiming } from "../../domain/ops/analytics/analytics-query-timing.ts";
import { mapStep } from "../../domain/ops/outside-lock.ts";
import { ok, type RouteTable } from "./define.ts";

/** Analytics: the client SDK's event batches (domain/ops/analytics/analytics-events.ts) and an admin's read-only query over the events. */
export const analyticsRoutes: RouteTable = {
  analyticsBatch: { handler: ({ auth, ctx, body }) => ok(uploadAnalyticsEvents(ctx, auth, body)) },
  // The query reads a copy of the events for long: it is evaluated once the transaction has committed, off the store's lock.
  analyticsQuery: {
    handler: ({ auth, ctx, body }) => mapStep(analyticsQuery(ctx, auth.project.id, body), (answer) => ok(answer), ctx),
  },
  analyticsQueryTiming: {
    handler: ({ auth, ctx, body }) => ok(analyticsQueryTiming(ctx, auth.project.id, body.query_id)),
  },
};
