import type { Hono } from "hono";
import type { z } from "zod";
import { controlEndpoints as ep, type ControlQuery } from "@authsim/sdk/emulator";
import type { FakeProvider } from "../../provider.ts";
import { json } from "../../api/http/respond.ts";
import { WebhookError } from "../webhooks/webhooks.ts";
import { pathOf, rawQuery } from "./control-input.ts";

/**
 * The webhooks of a project under /__emulator/webhooks (what `provider.webhooks` gives in process, emulator/webhooks/):
 * endpoints, messages with their deliveries, attempts, adding an endpoint, resending, and waiting for an attempt.
 */

const issuesOf = (error: z.ZodError) => error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);

function queryOf<S extends z.ZodObject>(
  url: string,
  query: ControlQuery<S>,
): { ok: true; value: z.output<S> } | { ok: false; response: Response } {
  const parsed = query.schema.safeParse(rawQuery(new URL(url), query));
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: json({ error: "Invalid query", issues: issuesOf(parsed.error) }, 400) };
}

async function bodyOf<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return { ok: false, response: json({ error: "Invalid JSON in request body" }, 400) };
  }
  const parsed = schema.safeParse(raw);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, response: json({ error: "Invalid body", issues: issuesOf(parsed.error) }, 400) };
}

const refusal = (error: unknown) => {
  if (error instanceof WebhookError) return json({ error: error.message }, error.status);
  throw error;
};

const withoutUndefined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

export function mountWebhooksControl(app: Hono, provider: FakeProvider): void {
  const webhooks = provider.webhooks;
  app.get(pathOf("webhookEndpoints"), (c) => {
    const q = queryOf(c.req.url, ep.webhookEndpoints.query);
    return q.ok ? json({ items: webhooks.endpoints(q.value.projectId) }) : q.response;
  });
  app.post(pathOf("addWebhookEndpoint"), async (c) => {
    const body = await bodyOf(c.req.raw, ep.addWebhookEndpoint.body);
    if (!body.ok) return body.response;
    const { projectId, url, ...options } = body.value;
    return webhooks
      .addEndpoint(projectId, url, withoutUndefined(options))
      .then((endpoint) => json(endpoint, 201), refusal);
  });
  app.get(pathOf("webhookMessages"), (c) => {
    const q = queryOf(c.req.url, ep.webhookMessages.query);
    return q.ok ? json({ items: webhooks.messages(q.value.projectId) }) : q.response;
  });
  app.get(pathOf("webhookAttempts"), (c) => {
    const q = queryOf(c.req.url, ep.webhookAttempts.query);
    if (!q.ok) return q.response;
    const { timeoutMs: _ignored, ...filter } = q.value;
    return json({ items: webhooks.attempts(withoutUndefined(filter)) });
  });
  app.get(pathOf("waitForWebhookAttempt"), async (c) => {
    const q = queryOf(c.req.url, ep.waitForWebhookAttempt.query);
    if (!q.ok) return q.response;
    const { timeoutMs, ...filter } = q.value;
    try {
      return json(await webhooks.waitFor(withoutUndefined(filter), timeoutMs === undefined ? {} : { timeoutMs }));
    } catch (error) {
      return json({ error: error instanceof Error ? error.message : String(error) }, 408);
    }
  });
  app.post(pathOf("resendWebhook"), async (c) => {
    const body = await bodyOf(c.req.raw, ep.resendWebhook.body);
    if (!body.ok) return body.response;
    const { projectId, msgId, endpointId } = body.value;
    return webhooks.resend(projectId, msgId, endpointId).then(() => json({ success: true }), refusal);
  });
}
