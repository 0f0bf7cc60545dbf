import type { AiModelScriptRecord } from "../../store/service-records.ts";
import { nextSequence } from "../../store/store.ts";
import { StatusError } from "../../errors/known-error.ts";
import type { OpContext } from "../context.ts";

/**
 * The offline model every AI route of the emulator answers with (POST /ai/query, the AI chat threads, the AI proxy),
 * in place of the real service's model provider. By default it answers one fixed text; a test queues answers through
 * the control plane (`/__emulator/ai/script`, emulator/control/ai-model.ts): each call takes the oldest queued answer,
 * a text the model says or a failure (status and message) its provider answers. The queue is state: snapshots keep it
 * and reset() empties it. It is bounded: at most MAX_SCRIPTED_REPLIES answers of at most MAX_SCRIPTED_TEXT characters.
 */

/** Says plainly that no model answered: the emulator runs no AI. */
export const LOCAL_AI_REPLY =
  "authsim does not run an AI model, so this is a fixed local reply. Your messages are stored in this thread and listed by GET /internal/ai-chat/{thread_id}.";

export const MAX_SCRIPTED_REPLIES = 100;
export const MAX_SCRIPTED_TEXT = 100_000;

export type ScriptedReply = AiModelScriptRecord["reply"];

const scriptKey = (seq: number) => String(seq).padStart(12, "0");

/** The queued answers, oldest first. */
export function scriptedReplies(ctx: OpContext): ScriptedReply[] {
  return [...ctx.tables.aiModelScript.values()].sort((a, b) => a.seq - b.seq).map((entry) => entry.reply);
}

/** Queues an answer; false when the queue is full (the caller refuses, nothing changes). */
export function queueReply(ctx: OpContext, reply: ScriptedReply): boolean {
  if (ctx.tables.aiModelScript.size >= MAX_SCRIPTED_REPLIES) return false;
  const seq = nextSequence(ctx.tables, "aiModelScript");
  ctx.tables.aiModelScript.set(scriptKey(seq), { seq, reply });
  return true;
}

export function clearScript(ctx: OpContext): void {
  for (const entry of [...ctx.tables.aiModelScript.values()]) ctx.tables.aiModelScript.delete(scriptKey(entry.seq));
}

/** The model's next answer: the oldest queued one (taken off the queue), else the fixed text. */
export function nextModelReply(ctx: OpContext): ScriptedReply {
  const oldest = ctx.tables.aiModelScript.oldest();
  if (!oldest) return { type: "text", text: LOCAL_AI_REPLY };
  // Taken for good even when the request then fails (a scripted failure, or a refusal after the model answered).
  ctx.keepOnFailure((tables) => tables.aiModelScript.delete(scriptKey(oldest.seq)));
  return oldest.reply;
}

/** The model's next text; a scripted failure is the route's plain-text answer with the failure's status. */
export function nextModelText(ctx: OpContext): string {
  const reply = nextModelReply(ctx);
  if (reply.type === "failure") throw new StatusError(reply.status, reply.message);
  return reply.text;
}
