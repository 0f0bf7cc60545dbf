import type { Hono } from "hono";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import type { FakeProvider, ProviderSnapshot } from "../../provider.ts";
import { json } from "../../api/http/respond.ts";
import { droppedEmailCount } from "../../domain/ops/emails/outbox.ts";
import { CONTROL_PREFIX, controlEndpoints as ep } from "@authsim/sdk/emulator";
import { parseControlBody as parse, pathOf, rawQuery } from "./control-input.ts";
import { mountPaymentsControl } from "./payments.ts";
import { mountDevtoolsControl } from "./devtools.ts";
import { mountStrongAuthControl } from "./strong-auth.ts";
import { mountFixedOtpControl } from "./fixed-otp.ts";
import { mountWebhooksControl } from "./webhooks.ts";
import { mountAiModelControl } from "./ai-model.ts";
import { mountOpenApiControl } from "../openapi/control.ts";
import { liveStateRefusal, snapshotState } from "./live-state-guard.ts";
import { clientProjectView } from "../../domain/views/projects.ts";

/**
 * Emulator-only endpoints, outside /api/v1 (so no real service has them): reset, snapshot/restore, the clock, and the
 * seeded projects with their keys. They need no authentication: the emulator is a local development server. Their
 * paths, bodies and answers are the control contract's (@authsim/sdk/emulator, control-contract.ts).
 */
export { CONTROL_PREFIX };

function withoutUndefined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}

export function mountControl(app: Hono, provider: FakeProvider): void {
  const clockView = () => ({ now_millis: provider.clock.now(), frozen: provider.clock.frozen });

  app.post(pathOf("reset"), async () => {
    await provider.store.transact(() => provider.reset());
    return json({ success: true });
  });
  app.get(pathOf("snapshot"), () => json(provider.snapshot()));
  app.post(pathOf("restore"), async (c) => {
    const parsed = await parse(c.req.raw, ep.restore.body);
    if (!parsed.ok) return parsed.response;
    const snapshot = parsed.value as ProviderSnapshot;
    // Checked before restoring (the dashboard's "Import snapshot" comes here too): a refused snapshot changes nothing.
    let refused: Response | null;
    try {
      refused = liveStateRefusal("the snapshot", snapshotState(snapshot.store));
    } catch (error) {
      return json({ error: `Invalid snapshot: ${error instanceof Error ? error.message : String(error)}` }, 400);
    }
    if (refused) return refused;
    await provider.store.transact(() => provider.restore(snapshot));
    return json({ success: true });
  });
  /** A change the clock refuses (an instant out of range, clock.ts) is a 400 and leaves the clock as it was. */
  const clockChange = async (change: () => void) => {
    try {
      change();
    } catch (error) {
      if (error instanceof RangeError) return json({ error: error.message }, 400);
      throw error;
    }
    // The work that became due runs before the answer, so the next request sees its effects (emulator/timed-work/).
    await provider.work.runDue();
    return json(clockView());
  };
  app.get(pathOf("clock"), () => json(clockView()));
  app.post(pathOf("advanceClock"), async (c) => {
    const parsed = await parse(c.req.raw, ep.advanceClock.body);
    if (!parsed.ok) return parsed.response;
    return clockChange(() => provider.clock.advance(parsed.value.millis));
  });
  app.post(pathOf("freezeClock"), async (c) => {
    const parsed = await parse(c.req.raw, ep.freezeClock.body);
    if (!parsed.ok) return parsed.response;
    return clockChange(() => provider.clock.freeze(parsed.value.at_millis));
  });
  app.post(pathOf("unfreezeClock"), () => clockChange(() => provider.clock.unfreeze()));
  const workView = () => ({
    ...clockView(),
    items: provider.work
      .pending()
      .map((w) => ({ kind: w.kind, what: w.what, count: w.count, due_at_millis: w.dueAtMillis })),
  });
  app.get(pathOf("work"), () => json(workView()));
  app.post(pathOf("runDueWork"), async () => {
    await provider.work.runDue();
    return json(workView());
  });
  app.post(pathOf("waitForIdleWork"), async () => {
    await provider.work.idle();
    return json(workView());
  });
  // The same query for both (ep.emails.query and ep.waitForEmail.query are one).
  const outboxFilter = (url: URL) => ep.emails.query.schema.safeParse(rawQuery(url, ep.emails.query));
  app.get(pathOf("emails"), (c) => {
    const parsed = outboxFilter(new URL(c.req.url));
    if (!parsed.success)
      return json(
        { error: "Invalid outbox query", issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) },
        400,
      );
    const { timeoutMs: _ignored, ...filter } = parsed.data;
    return json({
      items: provider.outbox.list(withoutUndefined(filter)),
      dropped: droppedEmailCount(provider.store.read),
    });
  });
  app.get(pathOf("waitForEmail"), async (c) => {
    const parsed = outboxFilter(new URL(c.req.url));
    if (!parsed.success)
      return json(
        { error: "Invalid outbox query", issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) },
        400,
      );
    const { timeoutMs, ...filter } = parsed.data;
    try {
      return json(
        await provider.outbox.waitFor(withoutUndefined(filter), timeoutMs === undefined ? {} : { timeoutMs }),
      );
    } catch (error) {
      return json({ error: error instanceof Error ? error.message : String(error) }, 408);
    }
  });
  app.get(pathOf("queuedEmails"), (c) => {
    const projectId = new URL(c.req.url).searchParams.get("project_id") ?? undefined;
    return json({ items: provider.outbox.queued(projectId === undefined ? {} : { projectId }) });
  });
  app.delete(pathOf("clearEmails"), async () => {
    await provider.outbox.clear();
    return json({ success: true });
  });
  app.get(pathOf("faults"), () => json({ items: provider.faults.list() }));
  app.post(pathOf("addFault"), async (c) => {
    const parsed = await parse(c.req.raw, ep.addFault.body);
    if (!parsed.ok) return parsed.response;
    return json(provider.faults.add(parsed.value), 201);
  });
  app.delete(pathOf("clearFaults"), () => {
    provider.faults.clear();
    return json({ success: true });
  });
  app.delete(pathOf("removeFault"), (c) =>
    provider.faults.remove(c.req.param("id"))
      ? json({ success: true })
      : json({ error: `No fault rule ${c.req.param("id")}` }, 404),
  );
  app.get(pathOf("projects"), () => {
    const projects = [...provider.store.read.projects.values()]
      .filter((p) => p.id !== INTERNAL_PROJECT_ID)
      .map((p) => {
        const keys = [...provider.store.read.apiKeySets.values()].find((k) => k.projectId === p.id);
        return {
          id: p.id,
          display_name: p.displayName,
          publishable_client_key: keys?.publishableClientKey ?? null,
          secret_server_key: keys?.secretServerKey ?? null,
          super_secret_admin_key: keys?.superSecretAdminKey ?? null,
        };
      });
    return json({ items: projects });
  });
  // What any client reads as GET /projects/current (no key, no secret), without a request to the API: the hosted pages
  // are served with it, so they render without a loading state (and neither the request log nor a fault rule sees it).
  // With allow_localhost, which the client view does not carry: the pages check their own origin is trusted.
  app.get(pathOf("clientConfig"), (c) => {
    const project = provider.store.read.projects.get(c.req.param("project_id"));
    if (!project) return json({ error: `No project ${c.req.param("project_id")}` }, 404);
    return json({ project: clientProjectView(project), allow_localhost: project.config.allow_localhost });
  });
  // Payments config, the checkout page and the onboarding page (emulator/control/payments.ts).
  mountPaymentsControl(app, provider, CONTROL_PREFIX);
  // The request log, project creation, fixture export/import and the page at / (emulator/control/devtools.ts).
  mountDevtoolsControl(app, provider, CONTROL_PREFIX);
  // The mock identity provider's page and the TOTP helper (emulator/control/strong-auth.ts).
  mountStrongAuthControl(app, provider, CONTROL_PREFIX);
  // Fixed sign-in OTPs by address pattern (emulator/control/fixed-otp.ts).
  mountFixedOtpControl(app, provider);
  // Webhooks: endpoints, messages, attempts, resend (emulator/control/webhooks.ts).
  mountWebhooksControl(app, provider);
  // The offline model's scripted answers for the AI routes (emulator/control/ai-model.ts).
  mountAiModelControl(app, provider);
  // The OpenAPI document of /api/v1 and its browsable reference page (emulator/openapi/).
  mountOpenApiControl(app, provider, CONTROL_PREFIX);
}
