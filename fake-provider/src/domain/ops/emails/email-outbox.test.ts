import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  START_MILLIS,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { useSmtp } from "../../../test-support/admin.ts";

/** GET/PATCH /emails/outbox…: every email as an outbox entry whose status follows the emulated clock. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

type Entry = Record<string, unknown> & { id: string; status: string };
const send = (json: unknown) => api(provider, "/emails/send-email", { headers: server(), json });
const list = async (query = "") =>
  expectJson<{ items: Entry[]; is_paginated: boolean; pagination: { next_cursor: string | null } }>(
    await api(provider, `/emails/outbox${query}`, { headers: server() }),
  );
const patch = (id: string, json: unknown) =>
  api(provider, `/emails/outbox/${id}`, { method: "PATCH", headers: server(), json });

describe("GET /emails/outbox", () => {
  it("lists built-in and sent emails, newest first, with the real fields of a sent entry", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    await expectJson(
      await send({
        user_ids: [user.user_id],
        html: "<p>Hello</p>",
        subject: "Hello",
        notification_category_name: "Transactional",
      }),
    );
    const page = await list();
    expect(page.is_paginated).toBe(true);
    expect(page.items[0]).toMatchObject({
      status: "sent",
      simple_status: "ok",
      subject: "Hello",
      to: { type: "user-primary-email", user_id: user.user_id },
      created_with: "programmatic-call",
      email_draft_id: null,
      is_transactional: true,
      is_paused: false,
      has_rendered: true,
      has_delivered: true,
      can_have_delivery_info: false,
      created_at_millis: START_MILLIS,
      delivered_at_millis: START_MILLIS,
      send_attempt_errors: null,
    });
    expect(page.items[0]!.tsx_source).toContain('"<p>Hello</p>"');
    // A built-in email is an entry too, to the address it was sent to.
    await api(provider, "/auth/password/send-reset-code", {
      headers: client(),
      json: { email: user.email, callback_url: "http://localhost:3000/reset" },
    });
    expect((await list()).items[0]).toMatchObject({
      status: "sent",
      to: { type: "user-custom-emails", user_id: user.user_id, emails: [user.email] },
      is_transactional: true,
    });
  });

  it("filters by status and simple_status, pages by cursor and refuses a limit over 100", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    for (const n of [1, 2, 3])
      await expectJson(await send({ user_ids: [user.user_id], html: `<p>${n}</p>`, subject: `n${n}` }));
    const first = await list("?status=sent&limit=2");
    expect(first.items.map((e) => e.subject)).toEqual(["n3", "n2"]);
    const second = await list(`?status=sent&limit=2&cursor=${first.pagination.next_cursor!}`);
    expect(second.items[0]!.subject).toBe("n1");
    expect((await list("?simple_status=error")).items).toEqual([]);
    expect((await api(provider, "/emails/outbox?limit=101", { headers: server() })).status).toBe(400);
    await expectKnownError(
      await api(provider, "/emails/outbox", { headers: client() }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});

describe("scheduling, pausing and cancelling against the clock", () => {
  it("keeps a future email scheduled until the clock passes it, and only then delivers it", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    await expectJson(
      await send({
        user_ids: [user.user_id],
        html: "<p>Later</p>",
        subject: "Later",
        scheduled_at_millis: START_MILLIS + 60_000,
      }),
    );
    const [entry] = (await list()).items;
    expect(entry).toMatchObject({
      status: "scheduled",
      simple_status: "in-progress",
      scheduled_at_millis: START_MILLIS + 60_000,
    });
    expect(provider.outbox.list({ to: user.email, kind: "custom" })).toEqual([]);
    provider.clock.advance(60_000);
    const got = await expectJson<Entry>(await api(provider, `/emails/outbox/${entry!.id}`, { headers: server() }));
    expect(got).toMatchObject({ status: "sent", delivered_at_millis: START_MILLIS + 60_000 });
    expect(provider.outbox.latest({ to: user.email, kind: "custom" })!.subject).toBe("Later");
  });

  it("pauses (staying paused past its time), reschedules, resumes and cancels; delivered or skipped ones are not editable", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    await expectJson(
      await send({
        user_ids: [user.user_id],
        html: "<p>x</p>",
        subject: "x",
        scheduled_at_millis: START_MILLIS + 1_000,
      }),
    );
    const id = (await list()).items[0]!.id;
    expect(await expectJson(await patch(id, { is_paused: true }))).toMatchObject({ status: "paused", is_paused: true });
    provider.clock.advance(5_000);
    expect(await expectJson(await patch(id, { scheduled_at_millis: START_MILLIS + 10_000 }))).toMatchObject({
      status: "paused",
      scheduled_at_millis: START_MILLIS + 10_000,
    });
    expect(await expectJson(await patch(id, { is_paused: false }))).toMatchObject({
      status: "scheduled",
      is_paused: false,
    });
    expect(await expectJson(await patch(id, { cancel: true }))).toMatchObject({
      status: "skipped",
      skipped_reason: "MANUALLY_CANCELLED",
      skipped_details: {},
    });
    const body = await expectKnownError(await patch(id, { is_paused: true }), "EMAIL_NOT_EDITABLE", 400);
    expect(body.details).toEqual({ email_id: id, status: "SKIPPED" });
    await expectJson(await send({ user_ids: [user.user_id], html: "<p>y</p>", subject: "y" }));
    const sent = (await list("?status=sent")).items[0]!.id;
    await expectKnownError(await patch(sent, { is_paused: true }), "EMAIL_NOT_EDITABLE", 400);
  });

  it("re-renders an edited entry for its new recipient", async () => {
    await useSmtp(provider);
    const [a, b] = [await signUp(provider), await signUp(provider)];
    await expectJson(
      await send({
        user_ids: [a.user_id],
        html: "<p>x</p>",
        subject: "Moved",
        scheduled_at_millis: START_MILLIS + 1_000,
      }),
    );
    const id = (await list()).items[0]!.id;
    const edited = await expectJson<Entry>(await patch(id, { to: { type: "user-primary-email", user_id: b.user_id } }));
    expect(edited).toMatchObject({
      status: "scheduled",
      to: { type: "user-primary-email", user_id: b.user_id },
      subject: "Moved",
    });
    provider.clock.advance(1_000);
    expect(provider.outbox.latest({ to: b.email, kind: "custom" })!.subject).toBe("Moved");
    expect(provider.outbox.list({ to: a.email, kind: "custom" })).toEqual([]);
  });

  it("answers 404 for another project's entry or an unknown id, and records a user without an email as skipped", async () => {
    await useSmtp(provider);
    const created = (await (await api(provider, "/users", { headers: server(), json: {} })).json()) as { id: string };
    await expectJson(await send({ user_ids: [created.id], html: "<p>x</p>", subject: "Nobody" }));
    expect((await list()).items[0]).toMatchObject({
      status: "skipped",
      skipped_reason: "USER_HAS_NO_PRIMARY_EMAIL",
      subject: "Nobody",
    });
    expect(
      (await api(provider, "/emails/outbox/a1234567-89ab-4def-8123-456789abcdef", { headers: server() })).status,
    ).toBe(404);
    expect(
      (await api(provider, "/emails/outbox/a1234567-89ab-4def-8123-456789abcdef", { headers: admin() })).status,
    ).toBe(404);
  });

  it("records a template that fails to render as a render-error entry, as upstream's queue does, and it stays editable", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    const { id: templateId } = await expectJson<{ id: string }>(
      await api(provider, "/internal/email-templates", { headers: admin(), json: { display_name: "Broken" } }),
    );
    const { id: draftId } = await expectJson<{ id: string }>(
      await api(provider, "/internal/email-drafts", {
        headers: admin(),
        json: { display_name: "Broken", tsx_source: "export function EmailTemplate() { throw new Error('boom'); }" },
      }),
    );
    void templateId;
    expect(await expectJson(await send({ user_ids: [user.user_id], draft_id: draftId }))).toEqual({
      results: [{ user_id: user.user_id }],
    });
    const [entry] = (await list()).items;
    expect(entry).toMatchObject({
      status: "render-error",
      simple_status: "error",
      created_with: "draft",
      email_draft_id: draftId,
      has_rendered: false,
    });
    expect(String(entry!.render_error)).toContain("boom");
    const fixed = await expectJson<Entry>(
      await patch(entry!.id, { tsx_source: "export function EmailTemplate() { return <p>fixed</p>; }" }),
    );
    expect(fixed).toMatchObject({ status: "sent", html: expect.stringContaining("fixed") });
    // A reason found at sending time comes with the sending time, as upstream's skipped entries do.
    const created = (await (await api(provider, "/users", { headers: server(), json: {} })).json()) as { id: string };
    await expectJson(await send({ user_ids: [created.id], html: "<p>x</p>", subject: "x" }));
    expect((await list()).items[0]).toMatchObject({ status: "skipped", started_sending_at_millis: START_MILLIS });
  });
});
