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
import { LOCAL_AI_REPLY } from "./admin-misc.ts";

/** Metrics, the webhook token and AI chat threads (spec §7 Admin, Other). */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

describe("GET /internal/metrics", () => {
  it("counts users from state, anonymous ones only with include_anonymous", async () => {
    await signUp(provider);
    await signUp(provider);
    await api(provider, "/auth/anonymous/sign-up", { method: "POST", headers: client() });
    const metrics = await expectJson<Record<string, unknown>>(
      await api(provider, "/internal/metrics", { headers: admin() }),
    );
    expect(metrics.total_users).toBe(2);
    const today = new Date(START_MILLIS).toISOString().slice(0, 10);
    const daily = metrics.daily_users as { date: string; activity: number }[];
    // Today and the 30 days before, as upstream's window.
    expect(daily).toHaveLength(31);
    expect(daily.at(-1)).toEqual({ date: today, activity: 2 });
    expect((metrics.daily_active_users as { activity: number }[]).at(-1)!.activity).toBe(2);
    expect(metrics.login_methods).toContainEqual({ method: "password", count: 2 });
    expect((metrics.recently_registered as unknown[]).length).toBe(2);
    const all = await expectJson<Record<string, unknown>>(
      await api(provider, "/internal/metrics?include_anonymous=true", { headers: admin() }),
    );
    expect(all.total_users).toBe(3);
    // Login methods count auth methods, which anonymous users have none of, with or without include_anonymous.
    expect(all.login_methods).toEqual([{ method: "password", count: 2 }]);
  });

  it("breaks users down in auth_overview and answers every overview group, zero where no state backs it", async () => {
    const verified = await signUp(provider);
    await signUp(provider);
    await api(provider, "/auth/anonymous/sign-up", { method: "POST", headers: client() });
    await expectJson(
      await api(provider, `/users/${verified.user_id}`, {
        method: "PATCH",
        headers: server(),
        json: { primary_email_verified: true },
      }),
    );
    await expectJson(await api(provider, "/teams", { headers: server(), json: { display_name: "T" } }), 201);
    const metrics = await expectJson<Record<string, Record<string, unknown>>>(
      await api(provider, "/internal/metrics", { headers: admin() }),
    );
    expect(metrics.auth_overview).toMatchObject({
      verified_users: 1,
      unverified_users: 1,
      anonymous_users: 1,
      total_teams: 1,
      total_users_filtered: 2,
      mau: 2,
    });
    const split = metrics.auth_overview!.daily_active_users_split as Record<string, { activity: number }[]>;
    expect(split.total!.at(-1)!.activity).toBe(2);
    expect(split.new!.at(-1)!.activity).toBe(2);
    expect(metrics.payments_overview).toMatchObject({ active_subscription_count: 0, subscriptions_by_status: {} });
    expect((metrics.payments_overview!.daily_subscriptions as unknown[]).length).toBe(31);
    // Two users signed in just now: both online, in the one region their sessions name (none: no IP was sent).
    expect(metrics.analytics_overview).toMatchObject({
      visitors: 0,
      top_referrers: [],
      online_live: 2,
      top_region: { country_code: null, region_code: null, count: 2 },
      total_replays: 0,
    });
    provider.clock.advance(10 * 60_000);
    const later = await expectJson<Record<string, Record<string, unknown>>>(
      await api(provider, "/internal/metrics", { headers: admin() }),
    );
    expect(later.analytics_overview!.online_live).toBe(0);
    expect(typeof metrics.email_overview!.total_emails).toBe("number");
  });

  it("lists only the sign-in methods some user has", async () => {
    const metrics = await expectJson<Record<string, unknown>>(
      await api(provider, "/internal/metrics", { headers: admin() }),
    );
    expect(metrics.login_methods).toEqual([]);
  });

  it("is admin only and takes only include_anonymous", async () => {
    await expectKnownError(
      await api(provider, "/internal/metrics", { headers: server() }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
    await expectKnownError(await api(provider, "/internal/metrics?days=3", { headers: admin() }), "SCHEMA_ERROR", 400);
  });
});

describe("POST /webhooks/svix-token", () => {
  it("gives a fresh token per call", async () => {
    const a = await expectJson<{ token: string }>(
      await api(provider, "/webhooks/svix-token", { headers: admin(), json: {} }),
    );
    const b = await expectJson<{ token: string }>(
      await api(provider, "/webhooks/svix-token", { headers: admin(), json: {} }),
    );
    expect(a.token).toMatch(/^authsim_svix_[0-9a-z]+$/);
    expect(a.token).not.toBe(b.token);
  });
});

describe("/internal/ai-chat/{thread_id}", () => {
  it("stores the conversation and says the reply is local", async () => {
    const thread = "/internal/ai-chat/thread-1";
    const reply = await expectJson<{ content: { type: string; text: string }[] }>(
      await api(provider, thread, {
        headers: admin(),
        json: { context_type: "email-template", messages: [{ role: "user", content: "Make it blue" }] },
      }),
    );
    expect(reply.content).toEqual([{ type: "text", text: LOCAL_AI_REPLY }]);
    expect(LOCAL_AI_REPLY).toContain("does not run an AI model");
    await expectJson(
      await api(provider, thread, {
        method: "PATCH",
        headers: admin(),
        json: { message: { role: "user", content: "thanks" } },
      }),
    );
    const { messages } = await expectJson<{ messages: unknown[] }>(await api(provider, thread, { headers: admin() }));
    expect(messages).toEqual([
      { role: "user", content: "Make it blue" },
      { role: "assistant", content: [{ type: "text", text: LOCAL_AI_REPLY }] },
      { role: "user", content: "thanks" },
    ]);
    expect(await expectJson(await api(provider, "/internal/ai-chat/other", { headers: admin() }))).toEqual({
      messages: [],
    });
  });
});

describe("POST /ai/query/{mode}", () => {
  const valid = {
    quality: "smart",
    speed: "fast",
    tools: [],
    systemPrompt: "wysiwyg-edit",
    messages: [{ role: "user", content: "const x = 1;" }],
  };
  const query = (json: unknown, mode = "generate") => api(provider, `/ai/query/${mode}`, { headers: admin(), json });

  it("checks the request as the real service does: messages, system prompt, mode and tool names", async () => {
    await expectKnownError(await query({ ...valid, messages: [] }), "SCHEMA_ERROR", 400);
    await expectKnownError(await query({ ...valid, systemPrompt: "invalid-prompt" }), "SCHEMA_ERROR", 400);
    await expectKnownError(await query(valid, "whisper"), "SCHEMA_ERROR", 400);
    const tools = await query({ ...valid, tools: ["rm-rf"] });
    expect([tools.status, await tools.text()]).toEqual([400, "Invalid tool names in request."]);
  });

  it("refuses a message with more than 3 images, or an image over 3 MiB by its base64 length, with the real texts", async () => {
    const image = (base64: string) => ({ type: "image", image: `data:image/png;base64,${base64}` });
    const withParts = (parts: unknown[]) => ({ ...valid, messages: [{ role: "user", content: parts }] });
    const four = await query(withParts(Array.from({ length: 4 }, () => image("AA=="))));
    expect([four.status, await four.text()]).toEqual([400, "Maximum 3 images per message."]);
    const big = await query(withParts([image("A".repeat(Math.ceil(((3 * 1024 * 1024 + 1) * 4) / 3)))]));
    expect([big.status, await big.text()]).toEqual([400, "Image exceeds 3MB limit (3.00MB)."]);
    // Three images, one of exactly the limit, are within both.
    const three = await query(withParts([image("AA=="), image("AA=="), image("A".repeat((3 * 1024 * 1024 * 4) / 3))]));
    expect(three.status).toBe(200);
  });

  it("answers a valid request with the fixed local reply, as JSON or as a UI message stream", async () => {
    expect(await expectJson(await query(valid))).toEqual({
      content: [{ type: "text", text: LOCAL_AI_REPLY }],
      finalText: LOCAL_AI_REPLY,
      conversationId: null,
    });
    const stream = await query(valid, "stream");
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    expect(await stream.text()).toContain(JSON.stringify({ type: "text-delta", id: "0", delta: LOCAL_AI_REPLY }));
  });

  it("refuses a project id from anyone but a dashboard user who manages it", async () => {
    const response = await query({ ...valid, projectId: "some-project" });
    expect([response.status, await response.text()]).toEqual([403, "You do not have access to this project"]);
  });
});
