import type { Hono } from "hono";
import { controlEndpoints as ep } from "@authsim/sdk/emulator";
import type { FakeProvider } from "../../provider.ts";
import { json } from "../../api/http/respond.ts";
import { ScriptFullError } from "../ai-model/offline-model-control.ts";
import { parseControlBody, pathOf } from "./control-input.ts";

/**
 * `/__emulator/ai/script`: the offline model's queued answers (emulator/ai-model/): GET lists them, POST `{replies}`
 * queues more, DELETE empties the queue.
 */
export function mountAiModelControl(app: Hono, provider: FakeProvider): void {
  app.get(pathOf("aiScript"), () => json({ replies: provider.ai.scripted() }));
  app.post(pathOf("addAiScript"), async (c) => {
    const parsed = await parseControlBody(c.req.raw, ep.addAiScript.body);
    if (!parsed.ok) return parsed.response;
    try {
      await provider.ai.script(...parsed.value.replies);
    } catch (error) {
      if (error instanceof ScriptFullError) return json({ error: error.message }, 400);
      throw error;
    }
    return json({ replies: provider.ai.scripted() }, 201);
  });
  app.delete(pathOf("clearAiScript"), async () => {
    await provider.ai.clear();
    return json({ success: true });
  });
}
