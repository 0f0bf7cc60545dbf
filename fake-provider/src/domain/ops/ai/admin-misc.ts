import { checkImageAttachments } from "./image-limits.ts";
import { nextModelText } from "./offline-model.ts";
import { INTERNAL_PROJECT_ID, type AiQueryRequest } from "@authsim/sdk/contract";
import { randomBase32, uuid } from "@authsim/sdk/runtime";
import type { Auth } from "../../auth/caller.ts";
import { managesProject } from "../../auth/ownership.ts";
import type { AiChatRecord } from "../../store/admin-records.ts";
import type { OpContext } from "../context.ts";
import { projectApp } from "../webhooks/webhooks.ts";
import { refusal } from "../../errors/refusals.ts";

/** The webhook token and the AI chat threads of the admin surface (spec §7 Admin; protocol.md §5.14). */

/**
 * POST /webhooks/svix-token: a token for the project's webhook application on the emulator's Svix API (api/svix/),
 * the application made first if need be, as upstream makes it. Fresh per call, as upstream's are; no portal URL is
 * given (upstream gives none either when it runs against its own Svix server).
 */
export function svixToken(ctx: OpContext, projectId: string): { token: string } {
  const app = projectApp(ctx, projectId);
  const token = `authsim_svix_${randomBase32(ctx.random, 160)}`;
  ctx.tables.svixTokens.set(token, { token, appId: app.id, createdAtMillis: ctx.now });
  return { token };
}

const chatKey = (projectId: string, threadId: string) => `${projectId}:${threadId}`;

// The fixed reply is the offline model's default (offline-model.ts).
export { LOCAL_AI_REPLY } from "./offline-model.ts";

function save(ctx: OpContext, projectId: string, threadId: string, append: unknown[]): AiChatRecord {
  const current = ctx.tables.aiChats.get(chatKey(projectId, threadId));
  const record: AiChatRecord = {
    projectId,
    threadId,
    messages: [...(current?.messages ?? []), ...append],
    updatedAtMillis: ctx.now,
  };
  ctx.tables.aiChats.set(chatKey(projectId, threadId), record);
  return record;
}

/** POST: the caller's messages, answered with the local reply (both are stored). */
export function chatCreate(
  ctx: OpContext,
  projectId: string,
  threadId: string,
  messages: unknown[],
): { content: { type: "text"; text: string }[] } {
  if (messages.length === 0) throw refusal("messagesEmpty");
  const content = [{ type: "text" as const, text: nextModelText(ctx) }];
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

/** The tools the real service's model may call; any other name is refused before anything runs. */
const AI_TOOLS = [
  "docs",
  "sql-query",
  "create-email-theme",
  "create-email-template",
  "create-email-draft",
  "update-dashboard",
];

/**
 * POST /ai/query/{mode}: the request checked as the real service checks it (its schema, then the tool names, then a
 * project id only for a dashboard user who manages it, then the images attached: image-limits.ts), then the fixed local reply in place of a model's. A stream
 * is answered as the same reply in one text part of the AI SDK's UI message stream.
 */
export function aiQuery(
  ctx: OpContext,
  auth: Auth | null,
  body: AiQueryRequest,
): { content: { type: "text"; text: string }[]; finalText: string; conversationId: string | null } {
  if (!body.tools.every((t) => AI_TOOLS.includes(t))) throw refusal("invalidToolNamesRequest");
  if (body.projectId != null) {
    const project = ctx.tables.projects.get(body.projectId);
    const user = auth?.project.id === INTERNAL_PROJECT_ID ? auth.user : null;
    if (!user || !project || !managesProject(ctx.tables, user.id, project)) throw refusal("noAccessToProject");
  }
  checkImageAttachments(body.messages);
  const text = nextModelText(ctx);
  return {
    content: [{ type: "text", text }],
    finalText: text,
    conversationId: body.mcpCallMetadata ? (body.mcpCallMetadata.conversationId ?? uuid(ctx.random)) : null,
  };
}

/** The local reply as a UI message stream (server-sent events), what the real stream mode answers. */
export function aiQueryStream(text: string): Response {
  const events = [
    { type: "start" },
    { type: "text-start", id: "0" },
    { type: "text-delta", id: "0", delta: text },
    { type: "text-end", id: "0" },
    { type: "finish" },
  ];
  const body = [...events.map((e) => `data: ${JSON.stringify(e)}\n\n`), "data: [DONE]\n\n"].join("");
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream", "x-vercel-ai-ui-message-stream": "v1" },
  });
}
