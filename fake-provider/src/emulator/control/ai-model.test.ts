import { describe, expect, it } from "vitest";
import { controlClient } from "@authsim/sdk/emulator";
import { admin, api, newProvider, ORIGIN } from "../../test-support/api.ts";
import { MAX_SCRIPTED_REPLIES } from "../../domain/ops/ai/offline-model.ts";

/** `/__emulator/ai/script` and `provider.ai`: the offline model's queued answers, seen by the AI routes. */

const aiQuery = {
  systemPrompt: "command-center-ask-ai",
  tools: [],
  quality: "dumb",
  speed: "fast",
  messages: [{ role: "user", content: "hi" }],
};

describe("the offline model's script", () => {
  it("is taken one answer per model call, by /ai/query too; a scripted failure is that route's plain-text answer", async () => {
    const provider = newProvider();
    const control = controlClient({ baseUrl: ORIGIN, fetch: provider.fetch });
    await control.call("addAiScript", {
      body: {
        replies: [
          { type: "text", text: "from the script" },
          { type: "failure", status: 503, message: "Model overloaded" },
        ],
      },
    });
    const first = await api(provider, "/ai/query/generate", { headers: admin(), json: aiQuery });
    expect(((await first.json()) as { finalText: string }).finalText).toBe("from the script");
    const second = await api(provider, "/ai/query/generate", { headers: admin(), json: aiQuery });
    expect([second.status, await second.text()]).toEqual([503, "Model overloaded"]);
    // The failure was taken even though its request failed.
    expect(provider.ai.scripted()).toEqual([]);
  });

  it("is bounded: past the bound nothing is queued, over the control plane or the provider", async () => {
    const provider = newProvider();
    const control = controlClient({ baseUrl: ORIGIN, fetch: provider.fetch });
    await provider.ai.script(
      ...Array.from({ length: MAX_SCRIPTED_REPLIES - 1 }, () => ({ type: "text" as const, text: "x" })),
    );
    await expect(
      control.call("addAiScript", {
        body: {
          replies: [
            { type: "text", text: "a" },
            { type: "text", text: "b" },
          ],
        },
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(provider.ai.scripted()).toHaveLength(MAX_SCRIPTED_REPLIES - 1);
    await expect(
      control.call("addAiScript", { body: { replies: [{ type: "failure", status: 200, message: "not a failure" }] } }),
    ).rejects.toMatchObject({ status: 400 });
    await provider.ai.clear();
    expect(provider.ai.scripted()).toEqual([]);
  });

  it("is state: reset empties it", async () => {
    const provider = newProvider();
    await provider.ai.script({ type: "text", text: "x" });
    await provider.store.transact(() => provider.reset());
    expect(provider.ai.scripted()).toEqual([]);
  });
});
