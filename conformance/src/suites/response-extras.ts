import { expect, it } from "vitest";
import { API_PREFIX, headerNames, type AccessType } from "@authsim/sdk/contract";
import type { InProcessTarget } from "../targets.ts";
import { CALLBACKS, codeOfLink, nextEmail } from "./account-support.ts";
import { useConformanceCatalogue } from "./payments-support.ts";
import { browserApp } from "./strong-auth-support.ts";
import { PASSWORD, uniqueEmail, uniqueTag } from "./support.ts";

/**
 * Successful calls of the operations no conformance suite makes (our SDK has no method for them, or the suites reach
 * them only through an error), so response-schemas.test.ts can hold their answers to the contract too. Raw HTTP with
 * the target's keys: each call must succeed, and the check after the case looks at what it answered.
 */

interface Call {
  method?: string;
  access?: AccessType;
  accessToken?: string;
  refreshToken?: string;
  json?: unknown;
}

async function call<T = Record<string, unknown>>(target: InProcessTarget, path: string, options: Call = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (options.access) {
    headers[headerNames.accessType] = options.access;
    headers[headerNames.projectId] = target.projectId;
    if (options.access === "client") headers[headerNames.publishableClientKey] = target.publishableClientKey;
    if (options.access === "server") headers[headerNames.secretServerKey] = target.secretServerKey;
    if (options.access === "admin") headers[headerNames.superSecretAdminKey] = target.superSecretAdminKey;
  }
  if (options.accessToken) headers[headerNames.accessToken] = options.accessToken;
  if (options.refreshToken) headers[headerNames.refreshToken] = options.refreshToken;
  if (options.json !== undefined) headers["content-type"] = "application/json";
  const method = options.method ?? (options.json === undefined ? "GET" : "POST");
  const body = options.json === undefined ? undefined : JSON.stringify(options.json);
  const response = await target.fetch(`${target.baseUrl}${API_PREFIX}${path}`, { method, headers, body });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return (response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : text) as T;
}

type Tokens = { access_token: string; refresh_token: string; user_id: string };

async function signUp(target: InProcessTarget, email = uniqueEmail("extra")): Promise<Tokens & { email: string }> {
  const tokens = await call<Tokens>(target, "/auth/password/sign-up", { access: "client", json: { email, password: PASSWORD } });
  return { ...tokens, email };
}

/** The OAuth callback as a form_post provider reaches it: the mock provider's answer POSTed instead of followed. */
async function formPostOAuthSignIn(target: InProcessTarget): Promise<string> {
  const { app, browser } = browserApp(target);
  await app.signInWithOAuth("google");
  const idp = browser.navigated.at(-1)!;
  const form = new URLSearchParams({ state: new URL(idp).searchParams.get("state")!, action: "allow", account_id: uniqueTag("g") });
  const posted = await target.fetch(idp, { method: "POST", body: form.toString(), headers: { "content-type": "application/x-www-form-urlencoded" }, redirect: "manual" });
  const callback = new URL(posted.headers.get("location")!);
  const back = await target.fetch(`${callback.origin}${callback.pathname}`, {
    method: "POST",
    body: callback.searchParams.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: (posted.headers.get("set-cookie") ?? "").split(";")[0]! },
    redirect: "manual",
  });
  expect(back.status, await back.clone().text()).toBe(303);
  browser.page.url = back.headers.get("location")!;
  expect(await app.callOAuthCallback()).toBe(true);
  return (await app.getAccessToken())!;
}

export function extraCalls(getTarget: () => InProcessTarget): void {
  it("answers the root, backend URLs, the version check and the telemetry sinks", async () => {
    const target = getTarget();
    await call(target, "");
    await call(target, "/internal/backend-urls");
    await call(target, "/check-version", { json: { clientVersion: "2.8.0" } });
    await call(target, "/analytics/events/batch", { access: "client", json: { events: [] } });
    await call(target, "/session-replays/batch", { access: "client", json: { events: [] } });
  });

  it("refreshes through the session endpoint and checks emailed codes without using them", async () => {
    const target = getTarget();
    const user = await signUp(target);
    await call(target, "/auth/sessions/current/refresh", { access: "client", refreshToken: user.refresh_token, json: {} });
    const me = { access: "client" as const, accessToken: user.access_token };
    const { items } = await call<{ items: { id: string }[] }>(target, "/contact-channels?user_id=me", me);
    await call(target, `/contact-channels/me/${items[0]!.id}`, me);
    await call(target, `/contact-channels/me/${items[0]!.id}/send-verification-code`, { ...me, json: { callback_url: CALLBACKS.emailVerification } });
    const verification = codeOfLink((await nextEmail(target, user.email, "email_verification")).link);
    await call(target, "/contact-channels/verify/check-code", { access: "client", json: { code: verification } });
    // A new address: an unverified one already signed up with a password may not sign in by code.
    const newcomer = uniqueEmail("extra-otp");
    await call(target, "/auth/otp/send-sign-in-code", { access: "client", json: { email: newcomer, callback_url: CALLBACKS.magicLink } });
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
    const team = await call<{ id: string }>(target, "/teams", { ...me, json: { display_name: uniqueTag("team"), creator_user_id: "me" } });
    const teamKey = await call<{ id: string }>(target, "/team-api-keys", { ...me, json: { ...key, team_id: team.id } });
    await call(target, `/team-api-keys/${teamKey.id}`, me);
    await call(target, `/team-api-keys/${teamKey.id}`, { ...me, method: "PATCH", json: { description: "renamed" } });
    const permission = uniqueTag("perm").replace(/-/g, "_");
    await call(target, "/project-permission-definitions", { access: "admin", json: { id: permission } });
    await call(target, `/project-permission-definitions/${permission}`, { access: "admin", method: "PATCH", json: { description: "extra" } });
    const internal = await call<{ id: string }>(target, "/internal/api-keys", {
      access: "admin",
      json: { description: "extra", expires_at_millis: target.clock.now() + 3_600_000, has_publishable_client_key: true, has_secret_server_key: false, has_super_secret_admin_key: false },
    });
    await call(target, `/internal/api-keys/${internal.id}`, { access: "admin" });
  });

  it("edits config overrides, starts an AI chat and completes a test-mode purchase", async () => {
    const target = getTarget();
    await call(target, "/internal/config/override", { access: "admin", method: "PATCH", json: { config_override_string: JSON.stringify({ "teams.allowClientTeamCreation": true }) } });
    await call(target, "/internal/config/override/branch", { access: "admin", method: "PUT", json: { config_string: JSON.stringify({}) } });
    await call(target, `/internal/ai-chat/${uniqueTag("thread")}`, { access: "admin", json: { messages: [{ role: "user", content: "hello" }] } });
    await useConformanceCatalogue(target);
    const user = await signUp(target);
    const body = { customer_type: "user", customer_id: user.user_id, offer_id: "credit-pack" };
    const { url } = await call<{ url: string }>(target, "/payments/purchases/create-purchase-url", { access: "client", accessToken: user.access_token, json: body });
    await call(target, "/internal/payments/test-mode-purchase-session", { access: "admin", json: { full_code: new URL(url).pathname.split("/").pop(), price_id: "once" } });
  });

  it("completes OAuth through a form_post callback, then reads the link and the legacy connected-account token", async () => {
    const target = getTarget();
    const accessToken = await formPostOAuthSignIn(target);
    const me = { access: "client" as const, accessToken };
    const { items } = await call<{ items: { id: string }[] }>(target, "/oauth-providers?user_id=me", me);
    await call(target, `/oauth-providers/me/${items[0]!.id}`, me);
    await call(target, "/auth/oauth/connected-accounts/google/access-token", me);
  });
}
