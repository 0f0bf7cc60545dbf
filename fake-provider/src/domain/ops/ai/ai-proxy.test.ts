import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, newProvider, type TestProvider } from "../../../test-support/api.ts";
import { DEFAULT_MODEL } from "./ai-proxy.ts";
import { LOCAL_AI_REPLY, queueReply } from "./offline-model.ts";
import { runOp } from "../../run-op.ts";

/** The AI proxy (/integrations/ai-proxy/...): the model provider's wire, answered by the offline model. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const PROXY = "/integrations/ai-proxy";
const messages = [{ role: "user", content: "Hello" }];
/** The provider's JSON, with the content type it sends (no charset), as upstream passes it on. */
async function expectJson<T>(response: Response): Promise<T> {
  expect([response.status, response.headers.get("content-type")]).toEqual([200, "application/json"]);
  return (await response.json()) as T;
}

describe("the AI proxy", () => {
  it("answers Anthropic's messages shape with the default text, the default model in place of one it does not allow", async () => {
    const response = await api(provider, `${PROXY}/v1/messages`, {
      json: { model: "gpt-9", max_tokens: 10, messages },
    });
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const body = await expectJson<Record<string, unknown>>(response);
    expect(body).toMatchObject({
      type: "message",
      role: "assistant",
      model: DEFAULT_MODEL,
      content: [{ type: "text", text: LOCAL_AI_REPLY }],
      stop_reason: "end_turn",
    });
    expect(body.id).toMatch(/^msg_[0-9a-f]{24}$/);
  });

  it("answers scripted texts in order, then scripted failures with their status, then the default again", async () => {
    await runOp(provider, (ctx) => {
      queueReply(ctx, { type: "text", text: "first" });
      queueReply(ctx, { type: "failure", status: 429, message: "Rate limited" });
    });
    const chat = await expectJson<{ model: string; choices: { message: { content: string } }[] }>(
      await api(provider, `${PROXY}/v1/chat/completions`, { json: { model: "anthropic/claude-haiku-4-5", messages } }),
    );
    expect([chat.model, chat.choices[0]!.message.content]).toEqual(["anthropic/claude-haiku-4-5", "first"]);
    const failed = await api(provider, `${PROXY}/v1/messages`, { json: { messages } });
    expect([failed.status, await failed.json()]).toEqual([429, { error: { message: "Rate limited", code: 429 } }]);
    const after = await expectJson<{ content: { text: string }[] }>(
      await api(provider, `${PROXY}/v1/messages`, { json: { messages } }),
    );
    expect(after.content[0]!.text).toBe(LOCAL_AI_REPLY);
  });

  it("streams when asked, as server-sent events", async () => {
    const response = await api(provider, `${PROXY}/v1/messages`, { json: { messages, stream: true } });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const text = await response.text();
    expect(text).toContain("event: message_start");
    expect(text).toContain(JSON.stringify({ type: "text_delta", text: LOCAL_AI_REPLY }));
    const chat = await (
      await api(provider, `${PROXY}/v1/chat/completions`, { json: { messages, stream: true } })
    ).text();
    expect(chat.trim().endsWith("data: [DONE]")).toBe(true);
  });

  it("lists models, and answers the provider's 404 for any other path", async () => {
    const models = await expectJson<{ data: { id: string }[] }>(await api(provider, `${PROXY}/v1/models`));
    expect(models.data.map((m) => m.id)).toContain(DEFAULT_MODEL);
    for (const response of [
      await api(provider, `${PROXY}/v1/unknown`),
      await api(provider, PROXY),
      await api(provider, `${PROXY}/v2/x`, { json: {} }),
    ]) {
      expect(response.status).toBe(404);
    }
  });

  it("refuses a body that is not a JSON object with the real plain-text 400s, consuming no scripted answer", async () => {
    await runOp(provider, (ctx) => void queueReply(ctx, { type: "text", text: "kept" }));
    for (const [body, text] of [
      ["[1]", "Request body must be a JSON object"],
      ["nope", "Request body must be valid JSON"],
    ] as const) {
      const response = await api(provider, `${PROXY}/v1/messages`, { body, contentType: "text/plain" });
      expect([response.status, await response.text()]).toEqual([400, text]);
    }
    expect(provider.store.read.aiModelScript.size).toBe(1);
  });
});
