import { refusal } from "../../errors/refusals.ts";

/**
 * The real service's limits on images a chat message attaches (POST /ai/query/{mode}, checked after the project id):
 * at most 3 image parts per message, each at most 3 MiB decoded. The size is estimated from the base64 text of the
 * data URL (or raw base64) without decoding it, as the service does, so a huge attachment costs one pass over its
 * length and nothing more.
 */
export const MAX_IMAGES_PER_MESSAGE = 3;
export const MAX_IMAGE_BYTES = 3 * 1024 * 1024;

/** Decoded bytes of base64 text, from its length and padding. */
function estimatedBytes(image: string): number {
  const comma = image.indexOf(",");
  const base64 = comma < 0 ? image : image.slice(comma + 1);
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return base64.length === 0 ? 0 : Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}

/** Throws the real service's 400 for the first message over a limit (in message order, then part order). */
export function checkImageAttachments(messages: readonly { content?: unknown }[]): void {
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    let images = 0;
    for (const part of message.content as unknown[]) {
      if (!part || typeof part !== "object" || (part as { type?: unknown }).type !== "image") continue;
      if (++images > MAX_IMAGES_PER_MESSAGE) throw refusal("tooManyImages", MAX_IMAGES_PER_MESSAGE);
      const image = (part as { image?: unknown }).image;
      if (typeof image === "string") {
        const bytes = estimatedBytes(image);
        if (bytes > MAX_IMAGE_BYTES)
          throw refusal("aiImageTooLarge", MAX_IMAGE_BYTES / (1024 * 1024), (bytes / 1024 / 1024).toFixed(2));
      }
    }
  }
}
