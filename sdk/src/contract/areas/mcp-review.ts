import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";

/**
 * The review of the docs assistant's MCP call log (upstream: a SpacetimeDB module the real service writes to): a
 * signed-in user adds a hand-written question and answer, deletes an entry, marks one reviewed or corrects it.
 * ops/internal/mcp-review.ts keeps the log as data.
 */

export const mcpAddManualBody = z.strictObject({ question: z.string(), answer: z.string(), publish: z.boolean() });
export type McpAddManualBody = z.infer<typeof mcpAddManualBody>;
export const mcpCorrelationBody = z.strictObject({ correlationId: z.string() });
export const mcpUpdateCorrectionBody = z.strictObject({
  correlationId: z.string(),
  correctedQuestion: z.string(),
  correctedAnswer: z.string(),
  publish: z.boolean(),
});
export type McpUpdateCorrectionBody = z.infer<typeof mcpUpdateCorrectionBody>;
export const mcpReviewResponse = z.object({ success: z.boolean() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const mcpReviewOperations = defineOperations("mcp-review", {
  mcpReviewAddManual: {
    method: "POST",
    path: "/internal/mcp-review/add-manual",
    access: "client",
    body: mcpAddManualBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(mcpReviewResponse)],
  },
  mcpReviewDelete: {
    method: "POST",
    path: "/internal/mcp-review/delete",
    access: "client",
    body: mcpCorrelationBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(mcpReviewResponse)],
  },
  mcpReviewMarkReviewed: {
    method: "POST",
    path: "/internal/mcp-review/mark-reviewed",
    access: "client",
    body: mcpCorrelationBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(mcpReviewResponse)],
  },
  mcpReviewUpdateCorrection: {
    method: "POST",
    path: "/internal/mcp-review/update-correction",
    access: "client",
    body: mcpUpdateCorrectionBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(mcpReviewResponse)],
  },
});
