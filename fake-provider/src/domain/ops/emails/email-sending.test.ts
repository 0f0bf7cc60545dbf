import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
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
import { SMTP, updatedProject, useSmtp } from "../../../test-support/admin.ts";

/** Sending (spec §7 Server only, Admin): send-email into the outbox, the sent list, the test email, sign-in invitations. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const send = (json: unknown, headers = server()) => api(provider, "/emails/send-email", { headers, json });
const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
/** An email sent with theme_id false: upstream's bare document around the content. */
const themeless = (content: string) =>
  `<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html dir="ltr" lang="en"><head></head><body><!--$--><table border="0" width="100%" cellPadding="0" cellSpacing="0" role="presentation" align="center"><tbody><tr><td>${content}</td></tr></tbody></table><!--3--><!--/$--></body></html>`;

describe("the sender of an email (From, as the real mailer writes it)", () => {
  it("is the project's name at the shared server's address, then its own sender once it has a server", async () => {
    const invite = (email: string) =>
      api(provider, "/internal/send-sign-in-invitation", {
        headers: server(),
        json: { email, callback_url: "http://localhost:3000/handler/sign-in" },
      });
    await expectJson(await invite("first@example.com"));
    expect(provider.outbox.latest({ to: "first@example.com" })!.from).toBe(
      `"${DEV.display_name}" <noreply@example.com>`,
    );
    await updatedProject(provider, {
      config: { email_config: { ...SMTP, sender_name: "Acme Mail", sender_email: "hello@acme.example" } },
    });
    await expectJson(await invite("second@example.com"));
    expect(provider.outbox.latest({ to: "second@example.com" })!.from).toBe('"Acme Mail" <hello@acme.example>');
    const user = await signUp(provider);
    await expectJson(await send({ user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Hi" }));
    expect(provider.outbox.latest({ to: user.email, kind: "custom" })!.from).toBe('"Acme Mail" <hello@acme.example>');
  });
});

describe("POST /emails/send-email", () => {
  it("needs the project's own email server (REQUIRES_CUSTOM_EMAIL_SERVER) and server access", async () => {
    const user = await signUp(provider);
    await expectKnownError(
      await send({ user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Hi" }),
      "REQUIRES_CUSTOM_EMAIL_SERVER",
      400,
    );
    await expectKnownError(
      await send({ user_ids: [user.user_id], html: "<p>Hi</p>", subject: "Hi" }, client()),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });

  it("sends HTML to users by id through the theme, into the outbox", async () => {
    await useSmtp(provider);
    const [a, b] = [await signUp(provider), await signUp(provider)];
    const result = await expectJson<{ results: { user_id: string }[] }>(
      await send({ user_ids: [a.user_id, b.user_id], html: "<p>Big <b>news</b></p>", subject: "News" }),
    );
    expect(result.results).toEqual([{ user_id: a.user_id }, { user_id: b.user_id }]);
    const mail = provider.outbox.latest({ to: b.email, kind: "custom" })!;
    expect(mail).toMatchObject({ subject: "News", userId: b.user_id, sentAtMillis: START_MILLIS });
    expect(mail.html).toContain("<p>Big <b>news</b></p>");
    expect(mail.html).toContain("background-color:rgb(250,251,251)");
    expect(mail.text).toBe("Big news");
  });

  it("sends a template with variables to all users, anonymous ones listed and skipped, and theme false renders a bare document", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    const anonymous = await expectJson<{ user_id: string }>(
      await api(provider, "/auth/anonymous/sign-up", { method: "POST", headers: client() }),
    );
    const { id } = await expectJson<{ id: string }>(
      await api(provider, "/internal/email-templates", { headers: admin(), json: { display_name: "Count" } }),
    );
    const source =
      'import { Subject, NotificationCategory } from "@stackframe/emails"; export const variablesSchema = (v) => v; export function EmailTemplate({ variables }) { return <><Subject value={`n=${variables.n}`} /><NotificationCategory value="Transactional" /><p>n is {variables.n}</p></>; }';
    await expectJson(
      await api(provider, `/internal/email-templates/${id}`, {
        method: "PATCH",
        headers: admin(),
        json: { tsx_source: source },
      }),
    );
    const result = await expectJson<{ results: { user_id: string }[] }>(
      await send({ all_users: true, template_id: id, variables: { n: 7 }, theme_id: false }),
    );
    // Upstream's all_users is every user of the project; an anonymous one has no primary email, so its entry is skipped.
    expect(result.results.map((r) => r.user_id).sort()).toEqual([user.user_id, anonymous.user_id].sort());
    const mail = provider.outbox.latest({ to: user.email })!;
    // No theme is upstream's bare document around the content, nothing styled.
    expect(mail).toMatchObject({ subject: "n=7", html: themeless("<p>n is <!-- -->7</p>"), text: "n is 7" });
    const { items } = await expectJson<{
      items: { to: { user_id?: string }; status: string; skipped_reason?: string }[];
    }>(await api(provider, "/emails/outbox", { headers: server() }));
    expect(items.find((e) => e.to.user_id === anonymous.user_id)).toMatchObject({
      status: "skipped",
      skipped_reason: "USER_HAS_NO_PRIMARY_EMAIL",
    });
  });

  it("sends a template with the project's theme unless the request names one: the template's own theme_id is not used", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    const { id } = await expectJson<{ id: string }>(
      await api(provider, "/internal/email-templates", { headers: admin(), json: { display_name: "Plain" } }),
    );
    const source =
      'import { Subject, NotificationCategory } from "@stackframe/emails"; export function EmailTemplate() { return <><Subject value="Plain" /><NotificationCategory value="Transactional" /><p>plain body</p></>; }';
    await expectJson(
      await api(provider, `/internal/email-templates/${id}`, {
        method: "PATCH",
        headers: admin(),
        json: { tsx_source: source, theme_id: false },
      }),
    );
    await expectJson(await send({ user_ids: [user.user_id], template_id: id }));
    // The project's selected theme wraps it (the default theme's background), though the template says no theme.
    expect(provider.outbox.latest({ to: user.email })!.html).toContain("background-color:rgb(250,251,251)");
    await expectJson(await send({ user_ids: [user.user_id], template_id: id, theme_id: false }));
    expect(provider.outbox.latest({ to: user.email })!.html).toBe(themeless("<p>plain body</p>"));
  });

  it("sends a draft and marks it sent", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    const { id } = await expectJson<{ id: string }>(
      await api(provider, "/internal/email-drafts", { headers: admin(), json: { display_name: "Launch" } }),
    );
    await expectJson(await send({ user_ids: [user.user_id], draft_id: id, subject: "Launch day" }));
    expect(provider.outbox.latest({ to: user.email })!.subject).toBe("Launch day");
    const { drafts } = await expectJson<{ drafts: { sent_at_millis: number | null }[] }>(
      await api(provider, "/internal/email-drafts", { headers: admin() }),
    );
    expect(drafts[0]!.sent_at_millis).toBe(START_MILLIS);
  });

  it("respects the user's notification preferences for the named category: a skipped outbox entry, nothing delivered", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    await expectJson(
      await api(provider, `/emails/notification-preference/me/${MARKETING}`, {
        method: "PATCH",
        headers: client({ accessToken: user.access_token }),
        json: { enabled: false },
      }),
    );
    const marketing = await expectJson<{ results: unknown[] }>(
      await send({
        user_ids: [user.user_id],
        html: "<p>Sale</p>",
        subject: "Sale",
        notification_category_name: "Marketing",
      }),
    );
    // Like the real service, the answer lists every requested user; the outbox entry says why it was not delivered.
    expect(marketing.results).toEqual([{ user_id: user.user_id }]);
    expect(provider.outbox.list({ to: user.email, kind: "custom" })).toEqual([]);
    const { items } = await expectJson<{ items: Record<string, unknown>[] }>(
      await api(provider, "/emails/outbox", { headers: server() }),
    );
    expect(items[0]).toMatchObject({
      status: "skipped",
      simple_status: "ok",
      skipped_reason: "USER_UNSUBSCRIBED",
      subject: "Sale",
      is_transactional: false,
    });
    const transactional = await expectJson<{ results: unknown[] }>(
      await send({
        user_ids: [user.user_id],
        html: "<p>Receipt</p>",
        subject: "Receipt",
        notification_category_name: "Transactional",
      }),
    );
    expect(transactional.results).toHaveLength(1);
    expect(
      (await send({ user_ids: [user.user_id], html: "<p>x</p>", subject: "x", notification_category_name: "Gossip" }))
        .status,
    ).toBe(400);
  });

  it("checks recipients and content as the real service: one of html, template_id and draft_id, exactly one of user_ids and all_users, known users", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    expect((await expectKnownError(await send({ html: "<p>x</p>", subject: "x" }), "SCHEMA_ERROR", 400)).error).toBe(
      "Exactly one of user_ids or all_users must be provided",
    );
    await expectKnownError(
      await send({ user_ids: [user.user_id], all_users: true, html: "<p>x</p>", subject: "x" }),
      "SCHEMA_ERROR",
      400,
    );
    const neither = await expectKnownError(
      await send({ user_ids: [user.user_id], subject: "x", theme_id: "not-a-uuid" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(neither.error).toBe(
      [
        "Request validation failed on POST /api/v1/emails/send-email:",
        "  - body is not matched by any of the provided schemas:",
        "    Schema 0:",
        "      body.html must be defined",
        "      body.theme_id is invalid",
        "    Schema 1:",
        "      body.template_id must be defined",
        "      body.theme_id is invalid",
        "    Schema 2:",
        "      body.draft_id must be defined",
        "      body.theme_id is invalid",
      ].join("\n"),
    );
    const missingTemplate = await send({
      user_ids: [user.user_id],
      template_id: "0c0c0c0c-0c0c-4c0c-8c0c-0c0c0c0c0c0d",
    });
    expect([missingTemplate.status, await missingTemplate.text()]).toEqual([
      400,
      "No template found with given template_id",
    ]);
    // HTML needs no subject.
    await expectJson(await send({ user_ids: [user.user_id], html: "<p>x</p>" }));
    const unknown = "0c0c0c0c-0c0c-4c0c-8c0c-0c0c0c0c0c0c";
    const body = await expectKnownError(
      await send({ user_ids: [unknown], html: "<p>x</p>", subject: "x" }),
      "USER_ID_DOES_NOT_EXIST",
      400,
    );
    expect(body.details).toEqual({ user_id: unknown });
  });

  it("GET /emails/delivery-info counts what was sent per window", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    await expectJson(await send({ user_ids: [user.user_id], html: "<p>x</p>", subject: "x" }));
    const info = await expectJson<{ stats: Record<string, { sent: number }> }>(
      await api(provider, "/emails/delivery-info", { headers: server() }),
    );
    expect(info.stats.hour!.sent).toBe(1);
    provider.clock.advance(2 * 3_600_000);
    const later = await expectJson<{ stats: Record<string, { sent: number }> }>(
      await api(provider, "/emails/delivery-info", { headers: server() }),
    );
    expect([later.stats.hour!.sent, later.stats.day!.sent]).toEqual([0, 1]);
  });
});

describe("the admin's email calls", () => {
  it("lists sent emails newest first, with recipients, subject and time", async () => {
    const user = await signUp(provider, {});
    await api(provider, "/auth/password/send-reset-code", {
      headers: client(),
      json: { email: user.email, callback_url: "http://localhost:3000/reset" },
    });
    const { items } = await expectJson<{ items: Record<string, unknown>[] }>(
      await api(provider, "/internal/emails", { headers: admin() }),
    );
    expect(items[0]).toMatchObject({ to: [user.email], sent_at_millis: START_MILLIS, error: null });
    expect(String(items[0]!.subject)).toContain("Reset your password");
  });

  it("lists every outbox entry, newest made first: a scheduled one (by user id, no subject yet) and the delivery-info counts only what was sent", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    const at = START_MILLIS + 3_600_000;
    await expectJson(
      await send({ user_ids: [user.user_id], html: "<p>later</p>", subject: "Later", scheduled_at_millis: at }),
    );
    const list = async () =>
      (
        await expectJson<{ items: Record<string, unknown>[] }>(
          await api(provider, "/internal/emails", { headers: admin() }),
        )
      ).items;
    const [scheduled] = await list();
    expect(scheduled).toMatchObject({ to: [`User ID: ${user.user_id}`], sent_at_millis: START_MILLIS, error: null });
    const info = await expectJson<{ stats: { hour: { sent: number } } }>(
      await api(provider, "/emails/delivery-info", { headers: server() }),
    );
    expect(info.stats.hour.sent).toBe(0);
    provider.clock.advance(3_600_001);
    await expectJson(await api(provider, "/emails/delivery-info", { headers: server() }));
    const [sent] = await list();
    expect(sent).toMatchObject({ id: scheduled!.id, subject: "Later", sent_at_millis: at });
  });

  it("a test email succeeds into the outbox, and fails with a message for a host that cannot resolve", async () => {
    const { type: _t, ...smtp } = SMTP;
    const ok = await expectJson(
      await api(provider, "/internal/send-test-email", {
        headers: admin(),
        json: { recipient_email: "me@example.com", email_config: smtp },
      }),
    );
    expect(ok).toEqual({ success: true });
    const test = provider.outbox.latest({ to: "me@example.com" })!;
    expect(test.text).toContain("smtp.example.com:587");
    // From the configuration under test, not the project's (which is still the shared server here).
    expect(test.from).toBe('"Dev" <noreply@example.com>');
    const failed = await expectJson<{ success: boolean; error_message: string }>(
      await api(provider, "/internal/send-test-email", {
        headers: admin(),
        json: { recipient_email: "me@example.com", email_config: { ...smtp, host: "mail.nowhere.invalid" } },
      }),
    );
    expect(failed).toEqual({
      success: false,
      error_message: expect.stringContaining("ENOTFOUND mail.nowhere.invalid"),
    });
  });

  it("sends a sign-in invitation to a trusted callback URL only", async () => {
    await expectJson(
      await api(provider, "/internal/send-sign-in-invitation", {
        headers: admin(),
        json: { email: "guest@example.com", callback_url: "http://localhost:3000/handler/sign-in" },
      }),
    );
    expect(provider.outbox.latest({ to: "guest@example.com" })).toMatchObject({
      kind: "sign_in_invitation",
      link: "http://localhost:3000/handler/sign-in",
    });
    await expectKnownError(
      await api(provider, "/internal/send-sign-in-invitation", {
        headers: admin(),
        json: { email: "guest@example.com", callback_url: "https://evil.example.net/x" },
      }),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
  });

  it("sends a sign-in invitation with a server key too (the real route takes server or admin), not a client one", async () => {
    const json = { email: "invitee@example.com", callback_url: "http://localhost:3000/handler/sign-in" };
    expect(
      await expectJson(await api(provider, "/internal/send-sign-in-invitation", { headers: server(), json })),
    ).toEqual({ success: true });
    expect(provider.outbox.latest({ to: "invitee@example.com" })).toMatchObject({ kind: "sign_in_invitation" });
    await expectKnownError(
      await api(provider, "/internal/send-sign-in-invitation", { headers: client(), json }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});
