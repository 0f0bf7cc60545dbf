import {
  aiQuery,
  aiQueryStream,
  chatCreate,
  chatMessages,
  chatSave,
  svixToken,
} from "../../domain/ops/ai/admin-misc.ts";
import { computeMetrics } from "../../domain/ops/analytics/metrics.ts";
import { ok, success, type RouteTable } from "./define.ts";

/** Metrics, the webhook token and AI chat threads (spec §7 Admin; protocol.md §5.14). */
export const adminMiscRoutes: RouteTable = {
  metrics: {
    handler: ({ auth, ctx, query }) => ok(computeMetrics(ctx, auth.project.id, query.include_anonymous ?? false)),
  },
  svixToken: { handler: ({ ctx, auth }) => ok(svixToken(ctx, auth.project.id)) },
  aiChatCreate: {
    handler: ({ auth, ctx, params, body }) => ok(chatCreate(ctx, auth.project.id, params.thread_id, body.messages)),
  },
  aiChatUpdate: {
    handler: ({ auth, ctx, params, body }) => {
      chatSave(ctx, auth.project.id, params.thread_id, body.message);
      return success();
    },
  },
  aiChatGet: { handler: ({ auth, ctx, params }) => ok(chatMessages(ctx, auth.project.id, params.thread_id)) },
  aiQuery: {
    handler: ({ auth, ctx, params, body }) => {
      const answer = aiQuery(ctx, auth, body);
      return params.mode === "stream" ? aiQueryStream(answer.finalText) : ok(answer);
    },
  },
};
