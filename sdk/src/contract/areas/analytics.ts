import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";
import { uuidNamed } from "./common.ts";

/**
 * Analytics queries (the real service's POST /internal/analytics/query): an admin's read-only SQL over the project's
 * events, answered as JSONEachRow rows. The emulator serves a subset of the dialect (fake-provider ops/analytics/analytics-sql.ts).
 */
export const analyticsQueryRequest = z.strictObject({
  query: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
  include_all_branches: z.boolean().optional(),
  timeout_ms: z.number().int().min(1_000).max(120_000).optional(),
});
export type AnalyticsQueryRequest = z.infer<typeof analyticsQueryRequest>;

export const analyticsQueryResponse = z.object({
  result: z.array(z.record(z.string(), z.unknown())),
  query_id: z.string(),
});

export const analyticsQueryTimingRequest = z.strictObject({ query_id: z.string().min(1) });
export const analyticsQueryTimingResponse = z.object({
  stats: z.object({ cpu_time: z.number(), wall_clock_time: z.number() }),
});

const wholeMillis = z.number().int().min(0);

/** The client SDK's batch of auto-captured events (POST /analytics/events/batch), at most 500 at a time. */
export const analyticsEventBatchRequest = z.strictObject({
  session_replay_segment_id: uuidNamed("session_replay_segment_id"),
  batch_id: uuidNamed("batch_id"),
  sent_at_ms: wholeMillis,
  events: z
    .array(
      z.object({
        event_type: z.enum(["$page-view", "$click"]),
        event_at_ms: wholeMillis,
        data: z.unknown().refine((value) => value !== undefined, "data must be defined"),
      }),
    )
    .min(1)
    .max(500),
});
export type AnalyticsEventBatchRequest = z.infer<typeof analyticsEventBatchRequest>;
export const analyticsEventBatchResponse = z.object({ inserted: z.number().int() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const analyticsOperations = defineOperations("analytics", {
  analyticsBatch: {
    method: "POST",
    path: "/analytics/events/batch",
    access: "client",
    body: analyticsEventBatchRequest,
    errors: ["ANALYTICS_NOT_ENABLED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(analyticsEventBatchResponse)],
  },
  // An admin's read-only SQL over the project's analytics events (areas/analytics.ts).
  analyticsQuery: {
    method: "POST",
    path: "/internal/analytics/query",
    access: "admin",
    body: analyticsQueryRequest,
    errors: ["ANALYTICS_QUERY_ERROR"],
    responses: [json(analyticsQueryResponse)],
  },
  // How long a finished query took (its query_id from the answer above): server or admin, as upstream.
  analyticsQueryTiming: {
    method: "POST",
    path: "/internal/analytics/query/timing",
    access: "server",
    body: analyticsQueryTimingRequest,
    errors: ["ITEM_NOT_FOUND"],
    responses: [json(analyticsQueryTimingResponse)],
  },
});
