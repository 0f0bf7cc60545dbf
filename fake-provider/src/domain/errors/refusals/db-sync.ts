import type { Refusal } from "./refusal.ts";

/** Plain-text refusals of the external database sync's endpoints (domain/ops/db-sync/). */
export const dbSyncRefusals = {
  // domain/ops/db-sync/db-sync-endpoints.ts
  maxDurationMsNotPositive: {
    status: 400,
    text: "maxDurationMs must be a positive integer",
    operations: ["dbSyncPoller", "dbSyncSequencer"],
  },
  upstashSignatureRequired: { status: 400, text: "upstash-signature header is required", operations: ["dbSyncEngine"] },
  upstashSignatureInvalid: { status: 400, text: "Invalid Upstash signature", operations: ["dbSyncEngine"] },
} as const satisfies Readonly<Record<string, Refusal>>;
