import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of the internal dashboard routes (domain/ops/internal/). */
export const internalRefusals = {
  // domain/ops/internal/internal-extras.ts
  endpointOnlyAvailableLocalEmulator: {
    status: 400,
    text: "This endpoint is only available in local emulator mode (set NEXT_PUBLIC_STACK_IS_LOCAL_EMULATOR=true).",
    operations: ["localEmulatorProject"],
  },
  endpointOnlyAvailablePreviewMode: {
    status: 403,
    text: "This endpoint is only available in preview mode",
    operations: ["previewCreateProject"],
  },
  // domain/ops/internal/feature-requests.ts: the emulator's own (upstream passes on its board service's error)
  featureRequestNotFound: { status: 404, text: "Feature request not found", operations: ["upvoteFeatureRequest"] },
  // domain/ops/internal/mcp-review.ts: the log's own wording (upstream passes the reducer's error on as a 500)
  mcpCallLogNotFound: {
    status: 404,
    text: (correlationId: Arg) => `Call log not found for correlationId: ${correlationId}`,
    operations: ["mcpReviewDelete", "mcpReviewMarkReviewed", "mcpReviewUpdateCorrection"],
  },
} as const satisfies Readonly<Record<string, Refusal>>;
