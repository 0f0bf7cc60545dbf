import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  START_MILLIS,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { MAX_EVENTS_PER_PROJECT, SESSION_IDLE_TIMEOUT_MS } from "./session-replays.ts";

/** POST /session-replays/batch and the admin's reads under /internal/session-replays. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const AT = START_MILLIS;
let n = 0;
const id = () => `00000000-0000-4000-8000-${String(++n).padStart(12, "0")}`;
const enableAnalytics = () =>
  api(provider, "/internal/config/override", {
    method: "PATCH",
    headers: admin(),
    json: { config_override_string: JSON.stringify({ "apps.installed.analytics.enabled": true }) },
  });
const batch = (over: Record<string, unknown> = {}) => ({
  browser_session_id: id(),
  session_replay_segment_id: id(),
  batch_id: id(),
  started_at_ms: AT,
  sent_at_ms: AT + 500,
  events: [{ timestamp: AT + 100 }, { timestamp: AT + 200 }],
  ...over,
});
const upload = (accessToken: string | undefined, json: unknown) =>
  api(provider, "/session-replays/batch", { headers: client(accessToken ? { accessToken } : {}), json });
type Upload = { session_replay_id: string; batch_id: string; s3_key: string; deduped: boolean };

describe("POST /session-replays/batch", () => {
  it("needs analytics enabled (ANALYTICS_NOT_ENABLED), then a user (USER_AUTHENTICATION_REQUIRED)", async () => {
    const user = await signUp(provider);
    await expectKnownError(await upload(user.access_token, batch()), "ANALYTICS_NOT_ENABLED", 400);
    await expectJson(await enableAnalytics());
    await expectKnownError(await upload(undefined, batch()), "USER_AUTHENTICATION_REQUIRED", 401);
  });

  it("stores a batch as a chunk of the session's replay, dedupes a repeated batch id, and refuses empty batches", async () => {
    await expectJson(await enableAnalytics());
    const user = await signUp(provider);
    const first = batch();
    const stored = await expectJson<Upload>(await upload(user.access_token, first));
    expect(stored).toMatchObject({ batch_id: first.batch_id, deduped: false });
    expect(stored.s3_key).toMatch(
      new RegExp(`^session-replays/.+/main/${stored.session_replay_id}/${first.batch_id}\\.json\\.gz$`),
    );
    expect(await expectJson<Upload>(await upload(user.access_token, first))).toMatchObject({
      session_replay_id: stored.session_replay_id,
      deduped: true,
    });
    const second = await expectJson<Upload>(
      await upload(user.access_token, batch({ events: [{ timestamp: AT + 900 }] })),
    );
    expect(second.session_replay_id).toBe(stored.session_replay_id);
    expect((await upload(user.access_token, batch({ events: [] }))).status).toBe(400);

    const { items } = await expectJson<{ items: Record<string, unknown>[] }>(
      await api(provider, "/internal/session-replays", { headers: admin() }),
    );
    expect(items).toEqual([
      {
        id: stored.session_replay_id,
        project_user: { id: user.user_id, display_name: null, primary_email: user.email },
        started_at_millis: AT + 100,
        last_event_at_millis: AT + 900,
        chunk_count: 2,
        event_count: 3,
      },
    ]);
    const chunks = await expectJson<{ items: { id: string; event_count: number }[] }>(
      await api(provider, `/internal/session-replays/${stored.session_replay_id}/chunks`, { headers: admin() }),
    );
    expect(chunks.items.map((c) => c.event_count)).toEqual([2, 1]);
    expect(
      await expectJson(
        await api(
          provider,
          `/internal/session-replays/${stored.session_replay_id}/chunks/${chunks.items[0]!.id}/events`,
          { headers: admin() },
        ),
      ),
    ).toEqual({ events: first.events });
    const all = await expectJson<{ chunks: unknown[]; chunk_events: unknown[] }>(
      await api(provider, `/internal/session-replays/${stored.session_replay_id}/events?offset=1`, {
        headers: admin(),
      }),
    );
    expect([all.chunks.length, all.chunk_events.length]).toEqual([2, 1]);
  });

  it("starts a new replay after the idle timeout on the emulated clock", async () => {
    await expectJson(await enableAnalytics());
    const user = await signUp(provider);
    const a = await expectJson<Upload>(await upload(user.access_token, batch()));
    provider.clock.advance(SESSION_IDLE_TIMEOUT_MS + 1);
    const b = await expectJson<Upload>(await upload(user.access_token, batch()));
    expect(b.session_replay_id).not.toBe(a.session_replay_id);
  });

  it("drops a project's oldest chunks past its cap of stored events", async () => {
    await expectJson(await enableAnalytics());
    const user = await signUp(provider);
    const big = Array.from({ length: 5_000 }, (_, i) => ({ timestamp: AT + i }));
    const uploads = Math.ceil(MAX_EVENTS_PER_PROJECT / big.length) + 1;
    for (let i = 0; i < uploads; i++) await expectJson(await upload(user.access_token, batch({ events: big })));
    const { items } = await expectJson<{ items: { event_count: number; chunk_count: number }[] }>(
      await api(provider, "/internal/session-replays", { headers: admin() }),
    );
    expect(items[0]!.event_count).toBeLessThanOrEqual(MAX_EVENTS_PER_PROJECT);
    expect(items[0]!.chunk_count).toBe(MAX_EVENTS_PER_PROJECT / big.length);
  });
});

describe("the admin's reads", () => {
  it("checks filters as the real service does and answers ITEM_NOT_FOUND for an unknown replay", async () => {
    const list = (q: string) => api(provider, `/internal/session-replays${q}`, { headers: admin() });
    expect((await list("?user_ids=not-a-uuid")).status).toBe(400);
    expect((await list("?duration_ms_min=5&duration_ms_max=1")).status).toBe(400);
    expect(await expectJson(await list("?limit=abc"))).toEqual({ items: [], pagination: { next_cursor: null } });
    await expectKnownError(
      await api(provider, `/internal/session-replays/${id()}/chunks`, { headers: admin() }),
      "ITEM_NOT_FOUND",
      404,
    );
    await expectKnownError(
      await api(provider, `/internal/session-replays/${id()}/events`, { headers: admin() }),
      "ITEM_NOT_FOUND",
      404,
    );
  });

  it("refuses a malformed id with the real service's bare line", async () => {
    await expectJson(await enableAnalytics());
    const user = await signUp(provider);
    const body = await expectKnownError(
      await upload(user.access_token, batch({ batch_id: "nope" })),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toBe("Request validation failed on POST /api/v1/session-replays/batch:\n  - Invalid batch_id");
  });

  it("filters by click_count_min, counting the $click analytics events sent on each replay's session", async () => {
    await expectJson(await enableAnalytics());
    const clicks = (accessToken: string, count: number) =>
      api(provider, "/analytics/events/batch", {
        headers: client({ accessToken }),
        json: {
          session_replay_segment_id: id(),
          batch_id: id(),
          sent_at_ms: AT,
          events: Array.from({ length: count }, () => ({ event_type: "$click", event_at_ms: AT, data: {} })).concat([
            { event_type: "$page-view", event_at_ms: AT, data: {} },
          ]),
        },
      });
    const a = await signUp(provider);
    const b = await signUp(provider);
    const replayA = await expectJson<Upload>(await upload(a.access_token, batch()));
    const replayB = await expectJson<Upload>(await upload(b.access_token, batch()));
    await expectJson(await clicks(a.access_token, 2));
    await expectJson(await clicks(a.access_token, 1));
    await expectJson(await clicks(b.access_token, 1));
    const ids = async (min: string) =>
      (
        await expectJson<{ items: { id: string }[] }>(
          await api(provider, `/internal/session-replays?click_count_min=${min}`, { headers: admin() }),
        )
      ).items
        .map((r) => r.id)
        .sort();
    expect(await ids("3")).toEqual([replayA.session_replay_id]);
    expect(await ids("0")).toEqual([replayA.session_replay_id, replayB.session_replay_id].sort());
    expect(await ids("4")).toEqual([]);
  });
});
