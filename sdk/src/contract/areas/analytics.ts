import { z } from "zod";

/**
 * Analytics queries (the real service's POST /internal/analytics/query): an admin's read-only SQL over the project's
 * events, answered as JSONEachRow rows. The emulator serves a subset of the dialect (fake-provider ops/analytics-sql.ts).
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
