import { aiChatCreate, aiChatParams, aiChatSave, aiQueryParams, aiQueryRequest, metricsQuery, svixTokenRequest } from "@authsim/sdk/contract";
import { aiQuery, aiQueryStream, chatCreate, chatMessages, chatSave, svixToken } from "../../domain/ops/admin-misc.ts";
import { computeMetrics } from "../../domain/ops/metrics.ts";
import { ok, route, success, type AnyRouteSpec } from "./define.ts";

/** Metrics, the webhook token and AI chat threads (spec §7 Admin; protocol.md §5.14). */
export const adminMiscRoutes: Record<string, AnyRouteSpec> = {
  metrics: route({
    query: metricsQuery,
    handler: ({ auth, ctx, query }) => ok(computeMetrics(ctx, auth!.project.id, query.include_anonymous ?? false)),
  }),
  svixToken: route({ body: svixTokenRequest, handler: ({ ctx }) => ok(svixToken(ctx)) }),
  aiChatCreate: route({
    params: aiChatParams,
    body: aiChatCreate,
    handler: ({ auth, ctx, params, body }) => ok(chatCreate(ctx, auth!.project.id, params.thread_id, body.messages)),
  }),
  aiChatUpdate: route({
    params: aiChatParams,
    body: aiChatSave,
    handler: ({ auth, ctx, params, body }) => {
      chatSave(ctx, auth!.project.id, params.thread_id, body.message);
      return success();
    },
  }),
  aiChatGet: route({ params: aiChatParams, handler: ({ auth, ctx, params }) => ok(chatMessages(ctx, auth!.project.id, params.thread_id)) }),
  aiQuery: route({
    params: aiQueryParams,
    body: aiQueryRequest,
    handler: ({ auth, ctx, params, body }) => {
      const answer = aiQuery(ctx, auth, body);
      return params.mode === "stream" ? aiQueryStream(answer.finalText) : ok(answer);
    },
  }),
};
