import type { Hono } from "hono";
import { controlEndpoints as ep } from "@authsim/sdk/emulator";
import type { FakeProvider } from "../../provider.ts";
import { json } from "../../api/http/respond.ts";
import { ScriptFullError } from "../ai-model/offline-model-control.ts";
import { pathOf } from "./control-input.ts";

/**
 * `/__emulator/ai/script`: the offline model's queued answers (emulator/ai-model/): GET lists them, POST `{replies}`
 * queues more, DELETE empties the queue.
 */
export function mountAiModelControl(app: Hono, provider: FakeProvider): void {
  app.get(pathOf("aiScript"), () => json({ replies: provider.ai.scripted() }));
  app.post(pathOf("addAiScript"), async (c) => {
    let raw: unknown;
    try {
      raw = await c.req.raw.json();
    } catch {
      return json({ error: "Invalid JSON in request body" }, 400);
    }
    const parsed = ep.addAiScript.body.safeParse(raw);
    if (!parsed.success) return json({ error: "Invalid body", issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) }, 400);
    try {
      await provider.ai.script(...parsed.data.replies);
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
