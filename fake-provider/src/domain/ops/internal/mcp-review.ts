import type { McpAddManualBody, McpUpdateCorrectionBody } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { OpContext } from "../context.ts";
import type { McpCallLogRecord } from "../../store/service-records.ts";
import type { UserRecord } from "../../store/records.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The MCP call log's review (POST /internal/mcp-review/*). Upstream writes to a log kept in an outside database
 * (SpacetimeDB) through its reducers; the emulator keeps the log as data in mcpCallLog, keyed by correlation id, with
 * the reducers' rules:
 * - a manual entry is reviewed at once by its author and published when asked;
 * - marking reviewed stamps the reviewer and the time;
 * - a correction keeps the first review's reviewer and time, and the first publication time while it stays published;
 * - an unknown correlation id is refused (upstream: the reducer's error), and nothing changes.
 * Upstream checks that the reviewer is approved (a flag in their client read-only metadata) only outside development;
 * the emulator answers as a development deployment does (protocol.md §1), so any signed-in user may review.
 */

/** Who the log names as the reviewer: display name, else primary email, else id. */
const reviewerOf = (user: UserRecord) => user.displayName ?? user.primaryEmail ?? user.id;

function requireEntry(ctx: OpContext, correlationId: string): McpCallLogRecord {
  const entry = ctx.tables.mcpCallLog.get(correlationId);
  if (!entry) throw refusal("mcpCallLogNotFound", correlationId);
  return entry;
}

export function addManualQa(ctx: OpContext, user: UserRecord, body: McpAddManualBody): { success: true } {
  const correlationId = uuid(ctx.random);
  ctx.tables.mcpCallLog.set(correlationId, {
    correlationId,
    createdAtMillis: ctx.now,
    toolName: "manual",
    question: body.question,
    response: "",
    humanReviewedAtMillis: ctx.now,
    humanReviewedBy: reviewerOf(user),
    humanCorrectedQuestion: body.question,
    humanCorrectedAnswer: body.answer,
    publishedToQa: body.publish,
    publishedAtMillis: body.publish ? ctx.now : null,
  });
  return { success: true };
}

export function deleteQaEntry(ctx: OpContext, correlationId: string): { success: true } {
  requireEntry(ctx, correlationId);
  ctx.tables.mcpCallLog.delete(correlationId);
  return { success: true };
}

export function markHumanReviewed(ctx: OpContext, user: UserRecord, correlationId: string): { success: true } {
  const entry = requireEntry(ctx, correlationId);
  ctx.tables.mcpCallLog.set(correlationId, {
    ...entry,
    humanReviewedAtMillis: ctx.now,
    humanReviewedBy: reviewerOf(user),
  });
  return { success: true };
}

export function updateHumanCorrection(
  ctx: OpContext,
  user: UserRecord,
  body: McpUpdateCorrectionBody,
): { success: true } {
  const entry = requireEntry(ctx, body.correlationId);
  ctx.tables.mcpCallLog.set(body.correlationId, {
    ...entry,
    humanCorrectedQuestion: body.correctedQuestion,
    humanCorrectedAnswer: body.correctedAnswer,
    humanReviewedAtMillis: entry.humanReviewedAtMillis ?? ctx.now,
    humanReviewedBy: entry.humanReviewedBy ?? reviewerOf(user),
    publishedToQa: body.publish,
    publishedAtMillis: body.publish ? (entry.publishedAtMillis ?? ctx.now) : null,
  });
  return { success: true };
}
