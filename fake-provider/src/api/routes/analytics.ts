import { analyticsEventBatchRequest, analyticsQueryRequest } from "@authsim/sdk/contract";
import { uploadAnalyticsEvents } from "../../domain/ops/analytics-events.ts";
import { analyticsQuery } from "../../domain/ops/analytics-query.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** Analytics: the client SDK's event batches (domain/ops/analytics-events.ts) and an admin's read-only query over the events. */
export const analyticsRoutes: Record<string, AnyRouteSpec> = {
  analyticsBatch: route({ body: analyticsEventBatchRequest, handler: ({ auth, ctx, body }) => ok(uploadAnalyticsEvents(ctx, auth!, body)) }),
  analyticsQuery: route({ body: analyticsQueryRequest, handler: ({ auth, ctx, body }) => ok(analyticsQuery(ctx, auth!.project.id, body)) }),
};
