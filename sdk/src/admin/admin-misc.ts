import { aiChatMessages, metricsResponse, svixTokenResponse, type MetricsJson } from "../contract/areas/admin-misc.ts";
import type { AppContext } from "../client/app-context.ts";

/** Metrics, the webhook token and AI chat threads (sdk-surface.md §8; spec §7 Admin). */

export async function getMetrics(ctx: AppContext, includeAnonymous = false): Promise<MetricsJson> {
  return ctx.transport.requestJson("/internal/metrics", { query: includeAnonymous ? { include_anonymous: "true" } : {} }, metricsResponse);
}

export async function getSvixToken(ctx: AppContext): Promise<{ token: string; url?: string }> {
  return ctx.transport.requestJson("/webhooks/svix-token", { method: "POST", body: {} }, svixTokenResponse);
}

export async function saveChatMessage(ctx: AppContext, threadId: string, message: unknown): Promise<void> {
  await ctx.transport.request(`/internal/ai-chat/${encodeURIComponent(threadId)}`, { method: "PATCH", body: { message } });
}

export async function listChatMessages(ctx: AppContext, threadId: string): Promise<{ messages: unknown[] }> {
  return ctx.transport.requestJson(`/internal/ai-chat/${encodeURIComponent(threadId)}`, {}, aiChatMessages);
}
