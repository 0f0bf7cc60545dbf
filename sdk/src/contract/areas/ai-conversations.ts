import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";

/**
 * The dashboard assistant's saved conversations: a user of the internal project keeps conversations per project it
 * names, each an ordered list of user and assistant messages whose content is any JSON value. ops/ai/ai-conversations.ts.
 */

const aiMessageInput = z.strictObject({
  role: z.enum(["user", "assistant"]),
  // Any JSON value, but present (upstream: a defined mixed value).
  content: z.unknown().refine((value) => value !== undefined, "must be defined"),
});
export type AiMessageInput = z.infer<typeof aiMessageInput>;

export const listAiConversationsQuery = z.strictObject({ projectId: z.string() });
export const aiConversationSummary = z.looseObject({
  id: z.string(),
  title: z.string(),
  projectId: z.string(),
  updatedAt: z.string(),
});
export const listAiConversationsResponse = z.object({ conversations: z.array(aiConversationSummary) });

export const createAiConversationBody = z.strictObject({
  title: z.string(),
  projectId: z.string(),
  messages: z.array(aiMessageInput),
});
export type CreateAiConversationBody = z.infer<typeof createAiConversationBody>;
export const createAiConversationResponse = z.object({ id: z.string(), title: z.string() });

export const aiConversationParams = z.object({ conversationId: z.string() });
export const aiConversationResponse = z.object({
  id: z.string(),
  title: z.string(),
  projectId: z.string(),
  messages: z.array(z.looseObject({ id: z.string(), role: z.string(), content: z.unknown() })),
});
export const updateAiConversationBody = z.strictObject({ title: z.string() });
export const replaceAiMessagesBody = z.strictObject({ messages: z.array(aiMessageInput) });
export const emptyAiAnswer = z.object({});

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const aiConversationsOperations = defineOperations("ai-conversations", {
  listAiConversations: {
    method: "GET",
    path: "/internal/ai-conversations",
    access: "client",
    query: listAiConversationsQuery,
    errors: ["SCHEMA_ERROR"],
    responses: [json(listAiConversationsResponse)],
  },
  createAiConversation: {
    method: "POST",
    path: "/internal/ai-conversations",
    access: "client",
    body: createAiConversationBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(createAiConversationResponse)],
  },
  getAiConversation: {
    method: "GET",
    path: "/internal/ai-conversations/:conversationId",
    access: "client",
    params: aiConversationParams,
    errors: ["SCHEMA_ERROR"],
    responses: [json(aiConversationResponse)],
  },
  updateAiConversation: {
    method: "PATCH",
    path: "/internal/ai-conversations/:conversationId",
    access: "client",
    params: aiConversationParams,
    body: updateAiConversationBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(emptyAiAnswer)],
  },
  deleteAiConversation: {
    method: "DELETE",
    path: "/internal/ai-conversations/:conversationId",
    access: "client",
    params: aiConversationParams,
    errors: ["SCHEMA_ERROR"],
    responses: [json(emptyAiAnswer)],
  },
  replaceAiMessages: {
    method: "PUT",
    path: "/internal/ai-conversations/:conversationId/messages",
    access: "client",
    params: aiConversationParams,
    body: replaceAiMessagesBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(emptyAiAnswer)],
  },
});
