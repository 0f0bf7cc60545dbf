import { uploadAnalyticsEvents } from "../../domain/ops/analytics/analytics-events.ts";
import { analyticsQueryTiming } from "../../domain/ops/analytics/analytics-query-timing.ts";
import { mapStep } from "../../domain/ops/outside-lock.ts";
import { ok, type RouteTable } from "./define.ts";

/** Analytics: the client SDK's event batches (domain/ops/analytics/analytics-events.ts) and an admin's read-only query over the events. */
export const analyticsRoutes: RouteTable = {
  analyticsBatch: { handler: ({ auth, ctx, body }) => ok(uploadAnalyticsEvents(ctx, auth, body)) },
  // The query reads a copy of the events for long: it is evaluated once the transaction has committed, off the store's lock.
  // Its ClickHouse SQL engine (parser, analyzer, evaluator) loads with the first query, not at every start.
  analyticsQuery: {
    handler: async ({ auth, ctx, body }) => {
      const { analyticsQuery } = await import("../../domain/ops/analytics/analytics-query.ts");
      return mapStep(analyticsQuery(ctx, auth.project.id, body), (answer) => ok(answer), ctx);
    },
  },
  analyticsQueryTiming: {
    handler: ({ auth, ctx, body }) => ok(analyticsQueryTiming(ctx, auth.project.id, body.query_id)),
  },
};
