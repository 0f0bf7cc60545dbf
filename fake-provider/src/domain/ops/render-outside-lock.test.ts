import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";
import { useSmtp } from "../../test-support/admin.ts";

/**
 * An email's own code never runs while the store's lock is held (domain/ops/outside-lock.ts, issue 31): a template that
 * loops until its deadline bounds only its own request. Before, every other request waited for it (~5 s each).
 * Bound: while it renders, GET /api/v1 answers within 100 ms (it took under 10 ms on a quiet machine) and a sign-up
 * goes through; the looping request still ends in its own outcome.
 */
const LOOP = "export function EmailTemplate() { for (;;) {} }";
const FINE =
  'import { Subject, NotificationCategory } from "@stackframe/emails";\nexport function EmailTemplate() { return <><Subject value="Hi" /><NotificationCategory value="Transactional" /><p>Hi</p></>; }';
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

let provider: TestProvider;
// Long enough for whileRendering's requests to happen during the render, short of the default five seconds.
const RENDER_TIME_LIMIT_MILLIS = 2_000;
beforeAll(async () => {
  provider = newProvider({ emailRenderTimeLimitMillis: RENDER_TIME_LIMIT_MILLIS });
  await useSmtp(provider);
  // The engine's first start (compiler, sandbox thread, React) is not what is measured.
  await expectJson(
    await api(provider, "/emails/render-email", {
      headers: admin(),
      json: { template_tsx_source: FINE, theme_id: false },
    }),
  );
}, 60_000);
afterEach(() => expect(provider.unexpected).toEqual([]));

/** Starts `request`, and while its email renders measures GET /api/v1 five times and signs a user up. */
async function whileRendering(request: () => Promise<Response>): Promise<{ worstMillis: number; answer: Response }> {
  let settled = false;
  const pending = request().finally(() => (settled = true));
  // Well into the render (the engine is warm: a render starts within milliseconds).
  await sleep(300);
  const latencies: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    expect((await api(provider, "/")).status).toBe(200);
    latencies.push(performance.now() - started);
    await sleep(50);
  }
  await signUp(provider);
  // All of it happened while the email was still rendering.
  expect(settled).toBe(false);
  return { worstMillis: Math.max(...latencies), answer: await pending };
}

describe("a template that loops until its deadline", () => {
  it("in a preview (POST /emails/render-email): other requests go on meanwhile; it answers EMAIL_RENDERING_ERROR", async () => {
    const { worstMillis, answer } = await whileRendering(() =>
      api(provider, "/emails/render-email", { headers: admin(), json: { template_tsx_source: LOOP, theme_id: false } }),
    );
    expect(worstMillis).toBeLessThanOrEqual(100);
    expect(String((await expectKnownError(answer, "EMAIL_RENDERING_ERROR", 400)).details?.error)).toContain(
      `longer than ${RENDER_TIME_LIMIT_MILLIS} ms`,
    );
  }, 30_000);

  it("saved as a template (PATCH /internal/email-templates/{id}): other requests go on meanwhile; it is refused and nothing is stored", async () => {
    const { id } = await expectJson<{ id: string }>(
      await api(provider, "/internal/email-templates", { headers: admin(), json: { display_name: "Looping" } }),
    );
    const before = await expectJson(await api(provider, "/internal/email-templates", { headers: admin() }));
    const { worstMillis, answer } = await whileRendering(() =>
      api(provider, `/internal/email-templates/${id}`, {
        method: "PATCH",
        headers: admin(),
        json: { tsx_source: LOOP },
      }),
    );
    expect(worstMillis).toBeLessThanOrEqual(100);
    await expectKnownError(answer, "EMAIL_RENDERING_ERROR", 400);
    expect(await expectJson(await api(provider, "/internal/email-templates", { headers: admin() }))).toEqual(before);
  }, 30_000);

  it("sent from a draft with no queue delay (POST /emails/send-email): other requests go on meanwhile; the entry is a render error", async () => {
    const user = await signUp(provider);
    const { id: draftId } = await expectJson<{ id: string }>(
      await api(provider, "/internal/email-drafts", { headers: admin(), json: { display_name: "Loop" } }),
    );
    await expectJson(
      await api(provider, `/internal/email-drafts/${draftId}`, {
        method: "PATCH",
        headers: admin(),
        json: { tsx_source: LOOP, theme_id: false },
      }),
    );
    const { worstMillis, answer } = await whileRendering(() =>
      api(provider, "/emails/send-email", {
        headers: server(),
        json: { user_ids: [user.user_id], draft_id: draftId, subject: "Loop" },
      }),
    );
    expect(worstMillis).toBeLessThanOrEqual(100);
    expect(await expectJson(answer)).toEqual({ results: [{ user_id: user.user_id }] });
    // Rendered before the answer, as the inline queue always did: the entry is settled, not "preparing".
    const { items } = await expectJson<{ items: { status: string; to: { user_id?: string } }[] }>(
      await api(provider, "/emails/outbox", { headers: server() }),
    );
    expect(items.find((e) => e.to.user_id === user.user_id)).toMatchObject({ status: "render-error" });
  }, 30_000);
});
