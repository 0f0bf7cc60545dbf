import type { Hono } from "hono";
import { z } from "zod";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import type { FakeProvider, ProviderSnapshot } from "../../provider.ts";
import { json } from "../../api/http/respond.ts";
import { LATEST_CLOCK_MILLIS } from "../../clock.ts";
import { droppedEmailCount } from "../../domain/ops/outbox.ts";
import { faultRuleInput } from "../faults/rules.ts";
import { SNAPSHOT_VERSION } from "../../domain/store/store.ts";
import { mountPaymentsControl } from "./payments.ts";
import { mountDevtoolsControl } from "./devtools.ts";
import { mountStrongAuthControl } from "./strong-auth.ts";
import { mountFixedOtpControl } from "./fixed-otp.ts";
import { mountOpenApiControl } from "../openapi/control.ts";
import { liveStateRefusal, snapshotState } from "./live-state-guard.ts";
import { clientProjectView } from "../../domain/views/projects.ts";

/**
 * Emulator-only endpoints, outside /api/v1 (so no real service has them): reset, snapshot/restore, the clock, and the
 * seeded projects with their keys. They need no authentication: the emulator is a local development server.
 */
export const CONTROL_PREFIX = "/__emulator";

const emailKinds = ["email_verification", "password_reset", "magic_link", "team_invitation", "sign_in_invitation", "custom"] as const;
const outboxQuery = z.object({
  to: z.string().optional(),
  kind: z.enum(emailKinds).optional(),
  projectId: z.string().optional(),
  afterSeq: z.coerce.number().int().nonnegative().optional(),
  timeoutMs: z.coerce.number().int().min(0).max(60_000).optional(),
});

function withoutUndefined<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

const advanceBody = z.strictObject({ millis: z.number().int().nonnegative() });
const freezeBody = z.strictObject({ at_millis: z.number().int().nonnegative().optional() });
const snapshotBody = z.object({
  store: z.object({ version: z.literal(SNAPSHOT_VERSION), tables: z.record(z.string(), z.array(z.tuple([z.string(), z.unknown()]))) }),
  clock: z.object({
    offsetMillis: z.number().int().min(-LATEST_CLOCK_MILLIS).max(LATEST_CLOCK_MILLIS),
    frozenAtMillis: z.number().int().min(0).max(LATEST_CLOCK_MILLIS).nullable(),
  }),
});

async function parse<S extends z.ZodType>(request: Request, schema: S): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  let raw: unknown = {};
  const textBody = await request.text();
  if (textBody.length > 0) {
    try {
      raw = JSON.parse(textBody);
    } catch {
      return { ok: false, response: json({ error: "Invalid JSON in request body" }, 400) };
    }
  }
  const result = schema.safeParse(raw);
  if (!result.success) return { ok: false, response: json({ error: "Invalid body", issues: result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) }, 400) };
  return { ok: true, value: result.data };
}

export function mountControl(app: Hono, provider: FakeProvider): void {
  const clockView = () => ({ now_millis: provider.clock.now(), frozen: provider.clock.frozen });

  app.post(`${CONTROL_PREFIX}/reset`, async () => {
    await provider.store.transact(() => provider.reset());
    return json({ success: true });
  });
  app.get(`${CONTROL_PREFIX}/snapshot`, () => json(provider.snapshot()));
  app.post(`${CONTROL_PREFIX}/restore`, async (c) => {
    const parsed = await parse(c.req.raw, snapshotBody);
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
  const clockChange = (change: () => void) => {
    try {
      change();
    } catch (error) {
      if (error instanceof RangeError) return json({ error: error.message }, 400);
      throw error;
    }
    return json(clockView());
  };
  app.get(`${CONTROL_PREFIX}/clock`, () => json(clockView()));
  app.post(`${CONTROL_PREFIX}/clock/advance`, async (c) => {
    const parsed = await parse(c.req.raw, advanceBody);
    if (!parsed.ok) return parsed.response;
    return clockChange(() => provider.clock.advance(parsed.value.millis));
  });
  app.post(`${CONTROL_PREFIX}/clock/freeze`, async (c) => {
    const parsed = await parse(c.req.raw, freezeBody);
    if (!parsed.ok) return parsed.response;
    return clockChange(() => provider.clock.freeze(parsed.value.at_millis));
  });
  app.post(`${CONTROL_PREFIX}/clock/unfreeze`, () => {
    provider.clock.unfreeze();
    return json(clockView());
  });
  const outboxFilter = (url: URL) => {
    const q = url.searchParams;
    const kind = q.get("kind");
    return outboxQuery.safeParse({
      to: q.get("to") ?? undefined,
      kind: kind ?? undefined,
      projectId: q.get("project_id") ?? undefined,
      afterSeq: q.get("after_seq") ?? undefined,
      timeoutMs: q.get("timeout_ms") ?? undefined,
    });
  };
  app.get(`${CONTROL_PREFIX}/outbox`, (c) => {
    const parsed = outboxFilter(new URL(c.req.url));
    if (!parsed.success) return json({ error: "Invalid outbox query", issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) }, 400);
    const { timeoutMs: _ignored, ...filter } = parsed.data;
    return json({ items: provider.outbox.list(withoutUndefined(filter)), dropped: droppedEmailCount(provider.store.read) });
  });
  app.get(`${CONTROL_PREFIX}/outbox/wait`, async (c) => {
    const parsed = outboxFilter(new URL(c.req.url));
    if (!parsed.success) return json({ error: "Invalid outbox query", issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) }, 400);
    const { timeoutMs, ...filter } = parsed.data;
    try {
      return json(await provider.outbox.waitFor(withoutUndefined(filter), timeoutMs === undefined ? {} : { timeoutMs }));
    } catch (error) {
      return json({ error: error instanceof Error ? error.message : String(error) }, 408);
    }
  });
  app.delete(`${CONTROL_PREFIX}/outbox`, async () => {
    await provider.outbox.clear();
    return json({ success: true });
  });
  app.get(`${CONTROL_PREFIX}/faults`, () => json({ items: provider.faults.list() }));
  app.post(`${CONTROL_PREFIX}/faults`, async (c) => {
    const parsed = await parse(c.req.raw, faultRuleInput);
    if (!parsed.ok) return parsed.response;
    return json(provider.faults.add(parsed.value), 201);
  });
  app.delete(`${CONTROL_PREFIX}/faults`, () => {
    provider.faults.clear();
    return json({ success: true });
  });
  app.delete(`${CONTROL_PREFIX}/faults/:id`, (c) =>
    provider.faults.remove(c.req.param("id")) ? json({ success: true }) : json({ error: `No fault rule ${c.req.param("id")}` }, 404),
  );
  app.get(`${CONTROL_PREFIX}/projects`, () => {
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
  app.get(`${CONTROL_PREFIX}/projects/:project_id/client-config`, (c) => {
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
  mountFixedOtpControl(app, provider, CONTROL_PREFIX);
  // The OpenAPI document of /api/v1 and its browsable reference page (emulator/openapi/).
  mountOpenApiControl(app, provider, CONTROL_PREFIX);
}
