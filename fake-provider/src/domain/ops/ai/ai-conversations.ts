import type { AiMessageInput, CreateAiConversationBody } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { refusal } from "../../errors/refusals.ts";
import type { AiConversationRecord } from "../../store/service-records.ts";
import type { UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

/**
 * The dashboard assistant's saved conversations (/internal/ai-conversations), stored as upstream stores them: a
 * conversation row (owner, project, title, times) and its messages as rows by position. A user sees only their own:
 * another's conversation, or an id that is none, is the plain 404 "Conversation not found". A listing is the owner's
 * 50 most recently updated for one project. Renaming a conversation and replacing its messages update its time.
 */

const LIST_LIMIT = 50;

function messagesOf(ctx: OpContext, conversationId: string) {
  return [...ctx.tables.aiMessages.values()]
    .filter((m) => m.conversationId === conversationId)
    .sort((a, b) => a.position - b.position);
}

function writeMessages(ctx: OpContext, conversationId: string, messages: readonly AiMessageInput[]): void {
  for (const old of messagesOf(ctx, conversationId)) ctx.tables.aiMessages.delete(old.id);
  messages.forEach((message, position) => {
    const id = uuid(ctx.random);
    ctx.tables.aiMessages.set(id, {
      id,
      conversationId,
      position,
      role: message.role,
      content: message.content,
      createdAtMillis: ctx.now,
    });
  });
}

function requireOwned(ctx: OpContext, user: UserRecord, conversationId: string): AiConversationRecord {
  const conversation = ctx.tables.aiConversations.get(conversationId);
  if (!conversation || conversation.userId !== user.id) throw refusal("conversationNotFound");
  return conversation;
}

export function listAiConversations(ctx: OpContext, user: UserRecord, projectId: string) {
  const conversations = [...ctx.tables.aiConversations.values()]
    .filter((c) => c.userId === user.id && c.projectId === projectId)
    .sort((a, b) => b.updatedAtMillis - a.updatedAtMillis || (a.id < b.id ? -1 : 1))
    .slice(0, LIST_LIMIT)
    .map((c) => ({
      id: c.id,
      title: c.title,
      projectId: c.projectId,
      updatedAt: new Date(c.updatedAtMillis).toISOString(),
    }));
  return { conversations };
}

/** A conversation belongs to an existing project (upstream's foreign key); another id is refused before anything is kept. */
export function createAiConversation(
  ctx: OpContext,
  user: UserRecord,
  body: CreateAiConversationBody,
): { id: string; title: string } {
  if (!ctx.tables.projects.has(body.projectId)) throw refusal("projectNotFound");
  const id = uuid(ctx.random);
  ctx.tables.aiConversations.set(id, {
    id,
    userId: user.id,
    projectId: body.projectId,
    title: body.title,
    createdAtMillis: ctx.now,
    updatedAtMillis: ctx.now,
  });
  writeMessages(ctx, id, body.messages);
  return { id, title: body.title };
}

export function getAiConversation(ctx: OpContext, user: UserRecord, conversationId: string) {
  const conversation = requireOwned(ctx, user, conversationId);
  const messages = messagesOf(ctx, conversation.id).map((m) => ({ id: m.id, role: m.role, content: m.content }));
  return { id: conversation.id, title: conversation.title, projectId: conversation.projectId, messages };
}

export function renameAiConversation(
  ctx: OpContext,
  user: UserRecord,
  conversationId: string,
  title: string,
): Record<string, never> {
  const conversation = requireOwned(ctx, user, conversationId);
  ctx.tables.aiConversations.set(conversation.id, { ...conversation, title, updatedAtMillis: ctx.now });
  return {};
}

export function deleteAiConversation(ctx: OpContext, user: UserRecord, conversationId: string): Record<string, never> {
  const conversation = requireOwned(ctx, user, conversationId);
  for (const message of messagesOf(ctx, conversation.id)) ctx.tables.aiMessages.delete(message.id);
  ctx.tables.aiConversations.delete(conversation.id);
  return {};
}

export function replaceAiMessages(
  ctx: OpContext,
  user: UserRecord,
  conversationId: string,
  messages: readonly AiMessageInput[],
): Record<string, never> {
  const conversation = requireOwned(ctx, user, conversationId);
  writeMessages(ctx, conversation.id, messages);
  ctx.tables.aiConversations.set(conversation.id, { ...conversation, updatedAtMillis: ctx.now });
  return {};
}
