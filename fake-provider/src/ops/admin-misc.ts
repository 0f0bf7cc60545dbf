import { randomBase32 } from "@authsim/sdk/runtime";
import { StatusError } from "../http/known-error.ts";
import type { AiChatRecord } from "../store/admin-records.ts";
import type { OpContext } from "./context.ts";

/** The webhook token and the AI chat threads of the admin surface (spec §7 Admin; protocol.md §5.14). */

/**
 * POST /webhooks/svix-token: a token for the webhook portal. The emulator runs no webhook service, so the token opens
 * nothing; it is fresh per call, as upstream's are, and no portal URL is given.
 */
export function svixToken(ctx: OpContext): { token: string } {
  return { token: `authsim_svix_${randomBase32(ctx.random, 160)}` };
}

const chatKey = (projectId: string, threadId: string) => `${projectId}:${threadId}`;

/** Says plainly that no model answered: the emulator stores conversations but runs no AI. */
export const LOCAL_AI_REPLY =
  "authsim does not run an AI model, so this is a fixed local reply. Your messages are stored in this thread and listed by GET /internal/ai-chat/{thread_id}.";

function save(ctx: OpContext, projectId: string, threadId: string, append: unknown[]): AiChatRecord {
  const current = ctx.tables.aiChats.get(chatKey(projectId, threadId));
  const record: AiChatRecord = { projectId, threadId, messages: [...(current?.messages ?? []), ...append], updatedAtMillis: ctx.now };
  ctx.tables.aiChats.set(chatKey(projectId, threadId), record);
  return record;
}

/** POST: the caller's messages, answered with the local reply (both are stored). */
export function chatCreate(ctx: OpContext, projectId: string, threadId: string, messages: unknown[]): { content: { type: "text"; text: string }[] } {
  if (messages.length === 0) throw new StatusError(400, "messages must not be empty");
  const content = [{ type: "text" as const, text: LOCAL_AI_REPLY }];
  save(ctx, projectId, threadId, [...messages, { role: "assistant", content }]);
  return { content };
}

/** PATCH {message}: stores one message as given (the published SDK's saveChatMessage). */
export function chatSave(ctx: OpContext, projectId: string, threadId: string, message: unknown): void {
  save(ctx, projectId, threadId, [message]);
}

/** GET: the thread's messages in order (an unknown thread has none). */
export function chatMessages(ctx: OpContext, projectId: string, threadId: string): { messages: unknown[] } {
  return { messages: ctx.tables.aiChats.get(chatKey(projectId, threadId))?.messages ?? [] };
}
