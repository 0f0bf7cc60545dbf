import type { Hono } from "hono";
import type { z } from "zod";
import { loadFixture } from "@authsim/fixtures";
import { controlEndpoints as ep } from "@authsim/sdk/emulator";
import type { FakeProvider } from "../../provider.ts";
import { exportFixture } from "../fixture-export/export.ts";
import { json } from "../../api/http/respond.ts";
import { fixtureState } from "../safety/live-keys.ts";
import { liveStateRefusal, projectBodyState } from "./live-state-guard.ts";
import { createProject, ProjectControlError, projectEntry, updateProject } from "./project-control.ts";
import { pathOf, rawQuery } from "./control-input.ts";

/**
 * The dev-tool endpoints the dashboard and fixtures need (emulator only, like the rest of emulator/control/): the request log,
 * project creation, fixture export/import, and the page `/` shows when no dashboard build is served.
 */
const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);

async function body(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  try {
    const text = await request.text();
    return { ok: true, value: text.length > 0 ? JSON.parse(text) : {} };
  } catch {
    return { ok: false, response: json({ error: "Invalid JSON in request body" }, 400) };
  }
}

async function parsed<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<{ ok: true; value: z.output<S> } | { ok: false; response: Response }> {
  const raw = await body(request);
  if (!raw.ok) return raw;
  const result = schema.safeParse(raw.value);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, response: json({ error: "Invalid body", issues: issues(result.error) }, 400) };
}

const controlError = (error: unknown) => {
  if (error instanceof ProjectControlError) return json({ error: error.message }, error.status);
  throw error;
};

/** What `/` answers in process, or when the dev server has no dashboard build (the Node edge serves the real one). */
export const DASHBOARD_PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>authsim emulator</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; line-height: 1.5">
<h1>authsim emulator</h1>
<p>The API is at <code>/api/v1</code> and the emulator's controls at <code>/__emulator</code>.</p>
<p>The dashboard (users, teams, outbox, request log, clock, faults, snapshots) is served by the dev server:
run <code>npm start</code> from the repository, which builds it when needed, and open the address it prints.</p>
</body></html>`;

export function mountDevtoolsControl(app: Hono, provider: FakeProvider, prefix: string): void {
  app.get(pathOf("requests"), (c) => {
    const result = ep.requests.query.schema.safeParse(rawQuery(new URL(c.req.url), ep.requests.query));
    if (!result.success) return json({ error: "Invalid request-log query", issues: issues(result.error) }, 400);
    const filter = Object.fromEntries(Object.entries(result.data).filter(([, v]) => v !== undefined));
    return json({
      items: provider.requestLog.list(filter),
      capacity: provider.requestLog.capacity,
      dropped: provider.requestLog.dropped,
    });
  });
  // What the dashboard's tabs count, in one small answer it can poll (the lists themselves carry every email's HTML
  // and every logged request): the project's users (anonymous ones too) and emails, and the log's entries that are not
  // the dashboard's own calls, of every project, as the Requests tab lists them by default.
  app.get(pathOf("counts"), (c) => {
    const projectId = new URL(c.req.url).searchParams.get(ep.counts.query.names.projectId);
    if (projectId === null || projectId === "")
      return json({ error: "Invalid counts query", issues: ["project_id: Required"] }, 400);
    let users = 0;
    for (const user of provider.store.read.users.values()) if (user.projectId === projectId) users++;
    return json({
      users,
      emails: provider.outbox.list({ projectId }).length,
      requests: provider.requestLog.list({ excludeDashboard: true }).length,
    });
  });
  app.delete(pathOf("clearRequests"), () => {
    provider.requestLog.clear();
    return json({ success: true });
  });

  app.post(pathOf("createProject"), async (c) => {
    const input = await parsed(c.req.raw, ep.createProject.body);
    if (!input.ok) return input.response;
    const refused = liveStateRefusal("the project", projectBodyState(input.value));
    if (refused) return refused;
    return createProject(provider, input.value).then((p) => json(projectEntry(provider, p), 201), controlError);
  });
  app.patch(pathOf("updateProject"), async (c) => {
    const input = await parsed(c.req.raw, ep.updateProject.body);
    if (!input.ok) return input.response;
    const refused = liveStateRefusal(
      "the project",
      projectBodyState({ ...input.value, id: c.req.param("project_id") }),
    );
    if (refused) return refused;
    return updateProject(provider, c.req.param("project_id"), input.value).then(
      (p) => json(projectEntry(provider, p)),
      controlError,
    );
  });

  app.get(pathOf("fixture"), (c) => {
    const projectIds = new URL(c.req.url).searchParams.getAll(ep.fixture.query.names.projectIds);
    const document = exportFixture(provider, projectIds.length > 0 ? { projectIds } : {});
    return json(document, 200, { "content-disposition": 'inline; filename="authsim-fixture.json"' });
  });
  // Loads a fixture into this emulator through its own public API (in process: no port, same code as loadFixture).
  app.post(pathOf("loadFixture"), async (c) => {
    const raw = await body(c.req.raw);
    if (!raw.ok) return raw.response;
    // Before loading, as the dev server does for --seed: a refused fixture never reaches the state.
    const refused = liveStateRefusal("the fixture", fixtureState(raw.value));
    if (refused) return refused;
    try {
      const report = await loadFixture(raw.value, {
        baseUrl: provider.settings.apiBaseUrl,
        fetch: provider.fetch,
        emulator: true,
      });
      return json(report, 201);
    } catch (error) {
      return json({ error: error instanceof Error ? error.message : String(error) }, 400);
    }
  });

  for (const path of ["/", `${prefix}/ui`, `${prefix}/ui/*`])
    app.get(
      path,
      () => new Response(DASHBOARD_PLACEHOLDER, { headers: { "content-type": "text/html; charset=utf-8" } }),
    );
}
