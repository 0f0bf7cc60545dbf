/**
 * Records of the outside services the real service's dashboard routes talk to, kept as data so the emulator can answer
 * them offline: the feature board (Featurebase upstream), the MCP call log (a SpacetimeDB module upstream) and the
 * messages the real service posts to a chat (Telegram upstream). Plain JSON values, replaced and never mutated.
 */

/** A post on the feature board (domain/ops/internal/feature-requests.ts). */
export interface FeatureRequestRecord {
  /** 24 hex digits, the board's id format. */
  id: string;
  title: string;
  content: string;
  category: string;
  tags: string[];
  commentsAllowed: boolean;
  customInputValues: Record<string, unknown>;
  authorEmail: string;
  authorName: string;
  /** Ids of the users who upvoted it (the board keys its voters by the real service's user id). */
  upvoterIds: string[];
  createdAtMillis: number;
  /** Posts merged into another or completed are not listed; the routes never set these, a test's state may. */
  mergedToId: string | null;
  status: { name: string; color: string; type: string } | null;
}

/** A row of the MCP call log, as far as the review routes write it (domain/ops/internal/mcp-review.ts). */
export interface McpCallLogRecord {
  correlationId: string;
  createdAtMillis: number;
  toolName: string;
  question: string;
  response: string;
  humanReviewedAtMillis: number | null;
  humanReviewedBy: string | null;
  humanCorrectedQuestion: string | null;
  humanCorrectedAnswer: string | null;
  publishedToQa: boolean;
  publishedAtMillis: number | null;
}

/** A message the real service would post to its team chat (domain/ops/internal/internal-extras.ts, the init-script report). */
export interface ChatMessageRecord {
  id: string;
  /** Which of the real service's chat configurations it goes to ("init-stack"). */
  channel: string;
  text: string;
  sentAtMillis: number;
}

/**
 * A file the real service would have put in its storage bucket (S3; domain/ops/storage/uploaded-images.ts): an uploaded
 * profile image or logo, kept as base64 so snapshots carry it. Keyed by its object key, e.g. `user-profile-images/<uuid>.png`.
 */
export interface StoredObjectRecord {
  key: string;
  contentType: string;
  base64: string;
  createdAtMillis: number;
}

/** A saved conversation of the dashboard's assistant (domain/ops/ai/ai-conversations.ts); its messages are rows of their own. */
export interface AiConversationRecord {
  id: string;
  /** The internal project's user who owns it. */
  userId: string;
  /** The project it is about (any project id the owner named that exists). */
  projectId: string;
  title: string;
  createdAtMillis: number;
  updatedAtMillis: number;
}

/** One message of a saved conversation, at its position. */
export interface AiMessageRecord {
  id: string;
  conversationId: string;
  position: number;
  role: "user" | "assistant";
  content: unknown;
  createdAtMillis: number;
}

/**
 * One scripted answer of the offline model (domain/ops/ai/offline-model.ts), queued by a test through the control plane:
 * a text the model answers, or a failure its provider answers. Keyed by its place in the queue (zero-padded).
 */
export interface AiModelScriptRecord {
  seq: number;
  reply: { type: "text"; text: string } | { type: "failure"; status: number; message: string };
}
