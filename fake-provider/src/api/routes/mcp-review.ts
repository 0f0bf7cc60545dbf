import {
  addManualQa,
  deleteQaEntry,
  markHumanReviewed,
  updateHumanCorrection,
} from "../../domain/ops/internal/mcp-review.ts";
import { ok, type RouteTable } from "./define.ts";
import { userBySchema } from "./user-by-schema.ts";

/** The MCP call log's review (domain/ops/internal/mcp-review.ts): any signed-in user, by the schema. */
export const mcpReviewRoutes: RouteTable = {
  mcpReviewAddManual: {
    handler: ({ auth, ctx, body, request }) => ok(addManualQa(ctx, userBySchema(auth, request), body)),
  },
  mcpReviewDelete: {
    handler: ({ auth, ctx, body, request }) => {
      userBySchema(auth, request);
      return ok(deleteQaEntry(ctx, body.correlationId));
    },
  },
  mcpReviewMarkReviewed: {
    handler: ({ auth, ctx, body, request }) =>
      ok(markHumanReviewed(ctx, userBySchema(auth, request), body.correlationId)),
  },
  mcpReviewUpdateCorrection: {
    handler: ({ auth, ctx, body, request }) => ok(updateHumanCorrection(ctx, userBySchema(auth, request), body)),
  },
};
