import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  anonymousSignUp,
  api,
  client,
  expectJson,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { useSmtp } from "../../../test-support/admin.ts";

/**
 * GET /internal/metrics read from the real route's sources: activity from `$token-refresh` events (so it outlives a
 * deleted user), web figures from uploaded page views, the email overview from the outbox.
 */

type Metrics = Record<string, Record<string, unknown>> & { daily_active_users: { activity: number }[] };

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const metrics = async (query = "") =>
  expectJson<Metrics>(await api(provider, `/internal/metrics${query}`, { headers: admin() }));

async function enableAnalytics() {
  await expectJson(
    await api(provider, "/internal/config/override", {
      method: "PATCH",
      headers: admin(),
      json: { config_override_string: JSON.stringify({ "apps.installed.analytics.enabled": true }) },
    }),
  );
}

async function pageViews(accessToken: string, referrers: (string | null)[], anonymous = false) {
  const now = provider.clock.now();
  await expectJson(
    await api(provider, "/analytics/events/batch", {
      headers: client({ accessToken, ...(anonymous ? { allowAnonymousUser: "true" } : {}) }),
      json: {
        session_replay_segment_id: crypto.randomUUID(),
        batch_id: crypto.randomUUID(),
        sent_at_ms: now,
        events: referrers.map((referrer, i) => ({
          event_type: "$page-view",
          event_at_ms: now - 100 + i,
          data: { path: `/p${i}`, ...(referrer === null ? {} : { referrer }) },
        })),
      },
    }),
  );
}

describe("GET /internal/metrics from events", () => {
  it("counts a deleted user's activity, as the real events outlive the user", async () => {
    const kept = await signUp(provider);
    const gone = await signUp(provider);
    await expectJson(await api(provider, `/users/${gone.user_id}`, { method: "DELETE", headers: server() }));
    const m = await metrics();
    expect(m.total_users).toBe(1);
    expect(m.auth_overview).toMatchObject({ mau: 2 });
    expect(m.analytics_overview).toMatchObject({ online_live: 2 });
    expect(m.daily_active_users.at(-1)!.activity).toBe(2);
    expect(kept.user_id).not.toBe(gone.user_id);
  });

  it("splits daily activity into new, retained and reactivated users", async () => {
    const user = await signUp(provider);
    const refresh = async () =>
      expectJson(
        await api(provider, "/auth/sessions/current/refresh", {
          method: "POST",
          headers: client({ refreshToken: user.refresh_token }),
        }),
      );
    provider.clock.advance(86_400_000);
    await refresh();
    provider.clock.advance(2 * 86_400_000);
    await refresh();
    const split = (await metrics()).auth_overview!.daily_active_users_split as Record<string, { activity: number }[]>;
    // Day 0: new; day 1: retained (active the day before); day 3: reactivated (not active on day 2).
    expect(split.new!.at(-4)!.activity).toBe(1);
    expect(split.retained!.at(-3)!.activity).toBe(1);
    expect(split.total!.at(-2)!.activity).toBe(0);
    expect(split.reactivated!.at(-1)!.activity).toBe(1);
  });

  it("counts page views, visitors and referrers by unique visitor, anonymous visitors only when asked", async () => {
    await enableAnalytics();
    const regular = await signUp(provider);
    await pageViews(regular.access_token, ["https://a.example/", "https://a.example/", null, ""]);
    const other = await signUp(provider);
    await pageViews(other.access_token, ["https://a.example/"]);
    const anonymous = await anonymousSignUp(provider);
    await pageViews(anonymous.access_token, ["https://anon.example/"], true);

    const m = await metrics();
    expect(m.analytics_overview).toMatchObject({
      visitors: 2,
      top_referrers: [
        { referrer: "https://a.example/", visitors: 2 },
        { referrer: "(direct)", visitors: 1 },
      ],
    });
    const views = (m.analytics_overview!.daily_page_views as { activity: number }[]).map((d) => d.activity);
    expect(views.reduce((a, b) => a + b)).toBe(5);
    const all = await metrics("?include_anonymous=true");
    expect(all.analytics_overview).toMatchObject({ visitors: 3 });
    expect(all.analytics_overview!.top_referrers).toContainEqual({ referrer: "https://anon.example/", visitors: 1 });
  });

  it("summarises the outbox: statuses, sends per day, the newest entries", async () => {
    await useSmtp(provider);
    const user = await signUp(provider);
    await expectJson(
      await api(provider, "/emails/send-email", {
        method: "POST",
        headers: server(),
        json: { user_ids: [user.user_id], subject: "Hello", html: "<p>Hi</p>" },
      }),
    );
    const email = (await metrics()).email_overview!;
    const total = email.total_emails as number;
    expect(total).toBeGreaterThan(0);
    expect(email.emails_by_status).toEqual({ ok: total });
    expect(email.emails_sent).toBe(total);
    expect((email.daily_emails as { activity: number }[]).at(-1)!.activity).toBe(total);
    const recent = email.recent_emails as { status: string; subject: string }[];
    expect(recent[0]).toMatchObject({ status: "SENT", subject: "Hello" });
  });
});
