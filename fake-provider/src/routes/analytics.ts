import { analyticsQueryRequest } from "@authsim/sdk/contract";
import { analyticsQuery } from "../ops/analytics-query.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** Analytics (ops/analytics-query.ts): an admin's read-only query over the project's events. */
export const analyticsRoutes: Record<string, AnyRouteSpec> = {
  analyticsQuery: route({ body: analyticsQueryRequest, handler: ({ auth, ctx, body }) => ok(analyticsQuery(ctx, auth!.project.id, body)) }),
};
