import { uploadAnalyticsEvents } from "../../domain/ops/analytics-events.ts";
import { analyticsQuery } from "../../domain/ops/analytics-query.ts";
import { outsideLock } from "../../domain/ops/outside-lock.ts";
import { ok, type RouteTable } from "./define.ts";

/** Analytics: the client SDK's event batches (domain/ops/analytics-events.ts) and an admin's read-only query over the events. */
export const analyticsRoutes: RouteTable = {
  analyticsBatch: { handler: ({ auth, ctx, body }) => ok(uploadAnalyticsEvents(ctx, auth, body)) },
  analyticsQuery: {
    handler: ({ auth, ctx, body }) => {
      // The query reads a copy of the events for long: it runs once the transaction has committed, off the store's lock.
      const evaluate = analyticsQuery(ctx, auth.project.id, body);
      return outsideLock(evaluate, (_ctx, answer) => ok(answer));
    },
  },
};
