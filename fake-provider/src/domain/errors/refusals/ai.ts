import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of the AI routes (domain/ops/ai/). */
export const aiRefusals = {
  // domain/ops/ai/admin-misc.ts
  messagesEmpty: { status: 400, text: "messages must not be empty", operations: ["aiChatCreate"] },
  invalidToolNamesRequest: { status: 400, text: "Invalid tool names in request.", operations: ["aiQuery"] },
  noAccessToProject: { status: 403, text: "You do not have access to this project", operations: ["aiQuery"] },
  // domain/ops/ai/image-limits.ts
  tooManyImages: { status: 400, text: (max: Arg) => `Maximum ${max} images per message.`, operations: ["aiQuery"] },
  aiImageTooLarge: {
    status: 400,
    text: (limitMb: Arg, sizeMb: Arg) => `Image exceeds ${limitMb}MB limit (${sizeMb}MB).`,
    operations: ["aiQuery"],
  },
  // domain/ops/ai/ai-conversations.ts (an unknown project is projectNotFound: upstream fails on its foreign key)
  conversationNotFound: {
    status: 404,
    text: "Conversation not found",
    operations: ["getAiConversation", "updateAiConversation", "deleteAiConversation", "replaceAiMessages"],
  },
  // domain/ops/ai/ai-proxy.ts
  aiProxyBodyNotJson: {
    status: 400,
    text: "Request body must be valid JSON",
    operations: ["aiProxyRootPost", "aiProxyPost"],
  },
  aiProxyBodyNotObject: {
    status: 400,
    text: "Request body must be a JSON object",
    operations: ["aiProxyRootPost", "aiProxyPost"],
  },
} as const satisfies Readonly<Record<string, Refusal>>;
