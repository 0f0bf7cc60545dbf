import { expect, it } from "vitest";
import type { InProcessTarget } from "../targets.ts";
import { CALLBACKS, codeOfLink, nextEmail } from "./account-support.ts";
import { useConformanceCatalogue } from "./payments-support.ts";
import { browserApp } from "./strong-auth-support.ts";

/**
 * Successful calls of the operations no conformance suite makes (our SDK has no method for them, or the suites reach
 * them only through an error), so response-schemas.test.ts can hold their answers to the contract too. Raw HTTP with
 * the target's keys (response-extras-support.ts): each call must succeed, and the check after the case looks at what
 * it answered. Issue 27's routes: response-extras-internal.ts; the payments routes: response-extras-payments.ts.
 */
import { call, signUp } from "./response-extras-support.ts";
import { uniqueEmail, uniqueTag } from "./support.ts";

/** The OAuth callback as a form_post provider reaches it: the mock provider's answer POSTed instead of followed. */
async function formPostOAuthSignIn(target: InProcessTarget): Promise<string> {
  const { app, browser } = browserApp(target);
  await app.signInWithOAuth("google");
  const idp = browser.navigated.at(-1)!;
  const form = new URLSearchParams({
    state: new URL(idp).searchParams.get("state")!,
    action: "allow",
    account_id: uniqueTag("g"),
  });
  const posted = await target.fetch(idp, {
    method: "POST",
    body: form.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  const callback = new URL(posted.headers.get("location")!);
  const back = await target.fetch(`${callback.origin}${callback.pathname}`, {
    method: "POST",
    body: callback.searchParams.toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: (posted.headers.get("set-cookie") ?? "").split(";")[0]!,
    },
    redirect: "manual",
  });
  expect(back.status, await back.clone().text()).toBe(303);
  browser.page.url = back.headers.get("location")!;
  expect(await app.callOAuthCallback()).toBe(true);
  return (await app.getAccessToken())!;
}

export function extraCalls(getTarget: () => InProcessTarget): void {
  it("answers the root, backend URLs and the version check", async () => {
    const target = getTarget();
    await call(target, "");
    await call(target, "/internal/backend-urls");
    await call(target, "/check-version", { json: { clientVersion: "2.8.0" } });
  });

  it("hands a session to another trusted domain (cross-domain authorize)", async () => {
    const target = getTarget();
    const user = await signUp(target);
    // Any 43-character challenge of the PKCE alphabet: the exchange is not part of this answer.
    const challenge = "A".repeat(43);
    await call(target, "/auth/oauth/cross-domain/authorize", {
      access: "client",
      accessToken: user.access_token,
      refreshToken: user.refresh_token,
      json: { redirect_uri: "http://localhost:3000/handler/oauth-callback", state: "s", code_challenge: challenge },
    });
  });

  it("reads and edits the email outbox, boosts capacity, reads a draft and the small internal routes", async () => {
    const target = getTarget();
    const user = await signUp(target);
    const smtp = {
      type: "standard",
      host: "smtp.example.com",
      port: 587,
      username: "u",
      password: "p",
      sender_email: "noreply@example.com",
      sender_name: "Example",
    };
    await call(target, "/internal/projects/current", {
      access: "admin",
      method: "PATCH",
      json: { config: { email_config: smtp } },
    });
    // Scheduled far ahead, so it stays editable.
    await call(target, "/emails/send-email", {
      access: "server",
      json: {
        user_ids: [user.user_id],
        html: "<p>Later</p>",
        subject: "Later",
        scheduled_at_millis: 32_503_680_000_000,
      },
    });
    const { items } = await call<{ items: { id: string }[] }>(target, "/emails/outbox", { access: "server" });
    await call(target, `/emails/outbox/${items[0]!.id}`, { access: "server" });
    await call(target, `/emails/outbox/${items[0]!.id}`, {
      access: "server",
      method: "PATCH",
      json: { is_paused: true },
    });
    await call(target, "/emails/send-email", {
      access: "server",
      json: { user_ids: [user.user_id], html: "<p>Sale</p>", subject: "Sale", notification_category_name: "Marketing" },
    });
    const sent = await call<{ items: { html: string }[] }>(target, "/emails/outbox?status=sent", { access: "server" });
    const link = /href="[^"]*(\/emails\/unsubscribe-link\?code=[a-z0-9]+)"/.exec(sent.items[0]!.html)![1]!;
    await call(target, link);
    await call(target, "/emails/capacity-boost", { access: "server", json: {} });
    const draft = await call<{ id: string }>(target, "/internal/email-drafts", {
      access: "admin",
      json: { display_name: "Draft" },
    });
    await call(target, `/internal/email-drafts/${draft.id}`, { access: "admin" });
    await call(target, "/internal/component-versions");
    await call(target, "/internal/feedback", { json: { email: "someone@example.com", message: "Hello" } });
    await call(target, "/internal/changelog");
    await call(target, "/internal/send-test-webhook", { access: "admin", json: { endpoint_id: "ep_1" } });
    await call(target, "/ai/query/generate", {
      json: {
        quality: "smart",
        speed: "fast",
        tools: [],
        systemPrompt: "wysiwyg-edit",
        messages: [{ role: "user", content: "Hi" }],
      },
    });
  });

  it("records a session replay and reads its chunks and events back", async () => {
    const target = getTarget();
    await call(target, "/internal/config/override", {
      access: "admin",
      method: "PATCH",
      json: { config_override_string: JSON.stringify({ "apps.installed.analytics.enabled": true }) },
    });
    const user = await signUp(target);
    const at = Date.UTC(2026, 0, 1);
    const id = (n: number) => `0000000${n}-0000-4000-8000-000000000000`;
    const batch = {
      browser_session_id: id(1),
      session_replay_segment_id: id(2),
      batch_id: id(3),
      started_at_ms: at,
      sent_at_ms: at + 10,
      events: [{ timestamp: at, type: 2 }],
    };
    const { session_replay_id: replay } = await call<{ session_replay_id: string }>(target, "/session-replays/batch", {
      access: "client",
      accessToken: user.access_token,
      json: batch,
    });
    await call(target, "/internal/session-replays", { access: "admin" });
    const { items } = await call<{ items: { id: string }[] }>(target, `/internal/session-replays/${replay}/chunks`, {
      access: "admin",
    });
    await call(target, `/internal/session-replays/${replay}/chunks/${items[0]!.id}/events`, { access: "admin" });
    await call(target, `/internal/session-replays/${replay}/events`, { access: "admin" });
  });

  it("reads a new user's $token-refresh event and uploaded page views through an analytics query", async () => {
    const target = getTarget();
    await call(target, "/internal/config/override", {
      access: "admin",
      method: "PATCH",
      json: { config_override_string: JSON.stringify({ "apps.installed.analytics.enabled": true }) },
    });
    const user = await signUp(target);
    const segment = "00000001-0000-4000-8000-000000000000";
    const at = Date.UTC(2026, 0, 1);
    const views = [
      { event_type: "$page-view", event_at_ms: at, data: { path: "/a" } },
      { event_type: "$click", event_at_ms: at + 1, data: { tag_name: "a" } },
    ];
    const batch = {
      session_replay_segment_id: segment,
      batch_id: "00000002-0000-4000-8000-000000000000",
      sent_at_ms: at + 2,
      events: views,
    };
    expect(
      await call(target, "/analytics/events/batch", { access: "client", accessToken: user.access_token, json: batch }),
    ).toEqual({ inserted: 2 });
    const query = "SELECT event_type, data.path AS path FROM events WHERE user_id = {user_id:String} ORDER BY event_at";
    const { result } = await call<{ result: { event_type: string; path: string | null }[] }>(
      target,
      "/internal/analytics/query",
      { access: "admin", json: { query, params: { user_id: user.user_id } } },
    );
    expect(result.map((r) => r.event_type).sort()).toEqual(["$click", "$page-view", "$token-refresh"]);
    expect(result.find((r) => r.event_type === "$page-view")?.path).toBe("/a");
  });

  it("refreshes through the session endpoint and checks emailed codes without using them", async () => {
    const target = getTarget();
    const user = await signUp(target);
    await call(target, "/auth/sessions/current/refresh", {
      access: "client",
      refreshToken: user.refresh_token,
      json: {},
    });
    const me = { access: "client" as const, accessToken: user.access_token };
    const { items } = await call<{ items: { id: string }[] }>(target, "/contact-channels?user_id=me", me);
    await call(target, `/contact-channels/me/${items[0]!.id}`, me);
    await call(target, `/contact-channels/me/${items[0]!.id}/send-verification-code`, {
      ...me,
      json: { callback_url: CALLBACKS.emailVerification },
    });
    const verification = codeOfLink((await nextEmail(target, user.email, "email_verification")).link);
    await call(target, "/contact-channels/verify/check-code", { access: "client", json: { code: verification } });
    // A new address: an unverified one already signed up with a password may not sign in by code.
    const newcomer = uniqueEmail("extra-otp");
    await call(target, "/auth/otp/send-sign-in-code", {
      access: "client",
      json: { email: newcomer, callback_url: CALLBACKS.magicLink },
    });
    const otp = codeOfLink((await nextEmail(target, newcomer, "magic_link")).link);
    await call(target, "/auth/otp/sign-in/check-code", { access: "client", json: { code: otp } });
  });

  it("reads API keys, edits a team key and a project permission definition, reads an internal key", async () => {
    const target = getTarget();
    const user = await signUp(target);
    const me = { access: "client" as const, accessToken: user.access_token };
    const key = { description: "extra", expires_at_millis: null };
    const userKey = await call<{ id: string }>(target, "/user-api-keys", { ...me, json: { ...key, user_id: "me" } });
    await call(target, `/user-api-keys/${userKey.id}`, me);
    const team = await call<{ id: string }>(target, "/teams", {
      ...me,
      json: { display_name: uniqueTag("team"), creator_user_id: "me" },
    });
    const teamKey = await call<{ id: string }>(target, "/team-api-keys", { ...me, json: { ...key, team_id: team.id } });
    await call(target, `/team-api-keys/${teamKey.id}`, me);
    await call(target, `/team-api-keys/${teamKey.id}`, { ...me, method: "PATCH", json: { description: "renamed" } });
    const permission = uniqueTag("perm").replace(/-/g, "_");
    await call(target, "/project-permission-definitions", { access: "admin", json: { id: permission } });
    await call(target, `/project-permission-definitions/${permission}`, {
      access: "admin",
      method: "PATCH",
      json: { description: "extra" },
    });
    const internal = await call<{ id: string }>(target, "/internal/api-keys", {
      access: "admin",
      json: {
        description: "extra",
        expires_at_millis: target.clock.now() + 3_600_000,
        has_publishable_client_key: true,
        has_secret_server_key: false,
        has_super_secret_admin_key: false,
      },
    });
    await call(target, `/internal/api-keys/${internal.id}`, { access: "admin" });
  });

  it("edits config overrides, starts an AI chat and completes a test-mode purchase", async () => {
    const target = getTarget();
    await call(target, "/internal/config/override", {
      access: "admin",
      method: "PATCH",
      json: { config_override_string: JSON.stringify({ "teams.allowClientTeamCreation": true }) },
    });
    await call(target, "/internal/config/override/branch", {
      access: "admin",
      method: "PUT",
      json: { config_string: JSON.stringify({}), source: { type: "pushed-from-unknown" } },
    });
    await call(target, `/internal/ai-chat/${uniqueTag("thread")}`, {
      access: "admin",
      json: { messages: [{ role: "user", content: "hello" }] },
    });
    await useConformanceCatalogue(target);
    const user = await signUp(target);
    const body = { customer_type: "user", customer_id: user.user_id, offer_id: "credit-pack" };
    const { url } = await call<{ url: string }>(target, "/payments/purchases/create-purchase-url", {
      access: "client",
      accessToken: user.access_token,
      json: body,
    });
    await call(target, "/internal/payments/test-mode-purchase-session", {
      access: "admin",
      json: { full_code: new URL(url).pathname.split("/").pop(), price_id: "once" },
    });
  });

  it("completes OAuth through a form_post callback, then reads the link and the legacy connected-account token", async () => {
    const target = getTarget();
    const accessToken = await formPostOAuthSignIn(target);
    const me = { access: "client" as const, accessToken };
    const { items } = await call<{ items: { id: string }[] }>(target, "/oauth-providers?user_id=me", me);
    await call(target, `/oauth-providers/me/${items[0]!.id}`, me);
    await call(target, "/auth/oauth/connected-accounts/google/access-token", { ...me, json: {} });
  });

  it("tests and counts sign-up rules, steps the email queue, digests failed emails and rewrites a template", async () => {
    const target = getTarget();
    await call(target, "/internal/sign-up-rules-test", {
      access: "admin",
      json: { email: uniqueEmail("rules"), auth_method: "password", oauth_provider: null, country_code: null },
    });
    await call(target, "/internal/sign-up-rules-stats", { access: "admin" });
    // The cron endpoints take the emulator's development CRON_SECRET (as upstream's development setup names it).
    const cron = { authorization: "Bearer mock_cron_secret" };
    await call(target, "/internal/email-queue-step?only_one_step=true", { headers: cron });
    await call(target, "/internal/failed-emails-digest?dry_run=true", { method: "POST", headers: cron });
    await call(target, "/internal/rewrite-template-source", {
      access: "admin",
      json: { template_tsx_source: "export function EmailTemplate() { return null; }" },
    });
  });
}
