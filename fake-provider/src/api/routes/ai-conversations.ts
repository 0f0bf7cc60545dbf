import * as conversations from "../../domain/ops/ai/ai-conversations.ts";
import { signedInBySchema } from "../../domain/ops/caller-schema.ts";
import type { Auth } from "../auth/parse-auth.ts";
import { ok, type RouteTable } from "./define.ts";
import { where } from "./user-by-schema.ts";

/** The assistant's saved conversations (domain/ops/ai/ai-conversations.ts): a user of the internal project, by the schema. */
const owner = (auth: Auth, request: Request) => signedInBySchema(auth, where(request), true);

export const aiConversationRoutes: RouteTable = {
  listAiConversations: {
    handler: ({ auth, ctx, query, request }) =>
      ok(conversations.listAiConversations(ctx, owner(auth, request), query.projectId)),
  },
  createAiConversation: {
    handler: ({ auth, ctx, body, request }) => ok(conversations.createAiConversation(ctx, owner(auth, request), body)),
  },
  getAiConversation: {
    handler: ({ auth, ctx, params, request }) =>
      ok(conversations.getAiConversation(ctx, owner(auth, request), params.conversationId)),
  },
  updateAiConversation: {
    handler: ({ auth, ctx, params, body, request }) =>
      ok(conversations.renameAiConversation(ctx, owner(auth, request), params.conversationId, body.title)),
  },
  deleteAiConversation: {
    handler: ({ auth, ctx, params, request }) =>
      ok(conversations.deleteAiConversation(ctx, owner(auth, request), params.conversationId)),
  },
  replaceAiMessages: {
    handler: ({ auth, ctx, params, body, request }) =>
      ok(conversations.replaceAiMessages(ctx, owner(auth, request), params.conversationId, body.messages)),
  },
};
