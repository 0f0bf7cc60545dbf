import { refusal } from "../../errors/refusals.ts";
import type { OpContext } from "../context.ts";
import { nextModelReply } from "./offline-model.ts";

/**
 * POST/GET /integrations/ai-proxy/{path}: upstream passes the request to its model provider (OpenRouter) with its own
 * key, after checking a POST body is a JSON object and putting its default model in place of a model it does not
 * allow. The emulator answers as that provider would, from the offline model (offline-model.ts): Anthropic's
 * `v1/messages` and OpenAI's `v1/chat/completions` (each also streamed when the body asks), and `v1/models`; a
 * scripted failure is the provider's JSON error with its status; any other path is the provider's 404.
 */

/** The models upstream lets a caller choose; any other is replaced by DEFAULT_MODEL. */
export const ALLOWED_MODELS = [
  "z-ai/glm-4.5-air:free",
  "openai/gpt-oss-120b:nitro",
  "anthropic/claude-haiku-4-5",
  "x-ai/grok-4.1-fast",
  "anthropic/claude-opus-4.6",
];
export const DEFAULT_MODEL = "anthropic/claude-sonnet-4.6";
/** OpenRouter's limit on metadata.user_id, which upstream cuts to. */
const USER_ID_LIMIT = 128;

export interface ProxyAnswer {
  status: number;
  /** A JSON value, or a stream's text (server-sent events). */
  body: unknown;
  stream: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The body as upstream passes it on: a JSON object, its model allowed, its metadata.user_id cut. */
function sanitized(raw: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw) as unknown;
  } catch {
    throw refusal("aiProxyBodyNotJson");
  }
  if (!isObject(parsed)) throw refusal("aiProxyBodyNotObject");
  const model =
    typeof parsed.model === "string" && ALLOWED_MODELS.includes(parsed.model) ? parsed.model : DEFAULT_MODEL;
  const metadata =
    isObject(parsed.metadata) && typeof parsed.metadata.user_id === "string"
      ? { ...parsed.metadata, user_id: parsed.metadata.user_id.slice(0, USER_ID_LIMIT) }
      : parsed.metadata;
  return { ...parsed, model, ...(metadata === undefined ? {} : { metadata }) };
}

const hex = (ctx: OpContext, bytes: number) =>
  Array.from(ctx.random.bytes(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
/** A rough token count (four characters a token), so usage figures move with the text. */
const tokens = (text: string) => Math.ceil(text.length / 4);
const notFound = (): ProxyAnswer => ({
  status: 404,
  body: { error: { message: "Not Found", code: 404 } },
  stream: false,
});
const sse = (events: readonly (readonly [string | null, unknown])[]) =>
  events
    .map(
      ([event, data]) =>
        `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`,
    )
    .join("");

function anthropicMessage(ctx: OpContext, model: string, prompt: string, text: string, stream: boolean): unknown {
  const id = `msg_${hex(ctx, 12)}`;
  const usage = { input_tokens: tokens(prompt), output_tokens: tokens(text) };
  if (!stream)
    return {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [{ type: "text", text }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage,
    };
  return sse([
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id,
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 0 },
        },
      },
    ],
    ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ]);
}

function chatCompletion(ctx: OpContext, model: string, prompt: string, text: string, stream: boolean): unknown {
  const id = `gen-${hex(ctx, 12)}`;
  const created = Math.floor(ctx.now / 1000);
  const usage = {
    prompt_tokens: tokens(prompt),
    completion_tokens: tokens(text),
    total_tokens: tokens(prompt) + tokens(text),
  };
  if (!stream)
    return {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
      usage,
    };
  const chunk = (delta: Json, finish: string | null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  return sse([
    [null, chunk({ role: "assistant", content: text }, null)],
    [null, { ...chunk({}, "stop"), usage }],
    [null, "[DONE]"],
  ]);
}

const ENDPOINTS: Record<string, typeof anthropicMessage> = {
  "v1/messages": anthropicMessage,
  "v1/chat/completions": chatCompletion,
};

export function proxyGet(path: string): ProxyAnswer {
  if (path !== "v1/models") return notFound();
  return {
    status: 200,
    body: { data: [...ALLOWED_MODELS, DEFAULT_MODEL].map((id) => ({ id, name: id })) },
    stream: false,
  };
}

export function proxyPost(ctx: OpContext, path: string, rawBody: string): ProxyAnswer {
  const body = sanitized(rawBody);
  const endpoint = ENDPOINTS[path];
  if (!endpoint) return notFound();
  const reply = nextModelReply(ctx);
  if (reply.type === "failure")
    return { status: reply.status, body: { error: { message: reply.message, code: reply.status } }, stream: false };
  const stream = body.stream === true;
  return {
    status: 200,
    body: endpoint(ctx, body.model as string, JSON.stringify(body.messages ?? ""), reply.text, stream),
    stream,
  };
}
