import { type MetricsJson } from "../contract/areas/admin-misc.ts";
import type { AppContext } from "../client/app-context.ts";
import { asServer } from "../transport/operation-call.ts";

/** Metrics, the webhook token and AI chat threads (sdk-surface.md §8; spec §7 Admin). */

export async function getMetrics(ctx: AppContext, includeAnonymous = false): Promise<MetricsJson> {
  return asServer.json(ctx.transport, "metrics", { query: includeAnonymous ? { include_anonymous: "true" } : {} });
}

export async function getSvixToken(ctx: AppContext): Promise<{ token: string; url?: string }> {
  return asServer.json(ctx.transport, "svixToken", { body: {} });
}

export async function saveChatMessage(ctx: AppContext, threadId: string, message: unknown): Promise<void> {
  await asServer.send(ctx.transport, "aiChatUpdate", { params: { thread_id: threadId }, body: { message } });
}

export async function listChatMessages(ctx: AppContext, threadId: string): Promise<{ messages: unknown[] }> {
  return asServer.json(ctx.transport, "aiChatGet", { params: { thread_id: threadId } });
}
