import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_INFLATED_BYTES } from "../../../api/http/parse.ts";
import {
  admin,
  anonymousSignUp,
  api,
  client,
  DEV,
  expectJson,
  expectKnownError,
  INTERNAL,
  newProvider,
  refreshGrant,
  signUp,
  wire,
  type TestProvider,
} from "../../../test-support/api.ts";
import { ANALYTICS_EVENT_CAPACITY } from "./analytics-events.ts";

/** `$token-refresh` events and POST /internal/analytics/query over them (domain/ops/analytics/analytics-events.ts, analytics-query.ts). */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

type Rows = { result: Record<string, unknown>[]; query_id: string };
const query = (body: Record<string, unknown>, project = DEV) =>
  api(provider, "/internal/analytics/query", { headers: admin({}, project), json: body });
const eventsOf = async (userId: string) =>
  (
    await expectJson<Rows>(
      await query({
        query:
          "SELECT event_type, project_id, branch_id, user_id, team_id, event_at FROM events WHERE user_id = {user_id:Nullable(String)} AND event_type = {t:String} ORDER BY event_at DESC LIMIT 100",
        params: { user_id: userId, t: "$token-refresh" },
      }),
    )
  ).result;

describe("$token-refresh events", () => {
  it("one per access token minted from a session: sign-up, sign-in, each refresh; anonymous users too", async () => {
    const user = await signUp(provider);
    expect(await eventsOf(user.user_id)).toEqual([
      {
        event_type: "$token-refresh",
        project_id: DEV.id,
        branch_id: "main",
        user_id: user.user_id,
        team_id: null,
        event_at: "2025-06-15 00:00:00.000",
      },
    ]);
    await expectJson(
      await api(provider, "/auth/password/sign-in", {
        headers: client(),
        json: { email: user.email, password: user.password },
      }),
    );
    provider.clock.advance(1_000);
    await expectJson(await refreshGrant(provider, user.refresh_token));
    const events = await eventsOf(user.user_id);
    expect(events).toHaveLength(3);
    // Newest first, as ordered.
    expect(events[0]!.event_at).toBe("2025-06-15 00:00:01.000");

    const anonymous = await anonymousSignUp(provider);
    const rows = await expectJson<Rows>(
      await query({
        query:
          "SELECT data.is_anonymous AS anon, data.refresh_token_id IS NOT NULL AS has_session FROM events WHERE user_id = {u:String}",
        params: { u: anonymous.user_id },
      }),
    );
    expect(rows.result).toEqual([{ anon: true, has_session: 1 }]);
  });

  it("a project reads only its own events", async () => {
    const user = await signUp(provider);
    const other = await expectJson<Rows>(
      await query(
        { query: "SELECT count() AS n FROM events WHERE user_id = {u:String}", params: { u: user.user_id } },
        INTERNAL,
      ),
    );
    expect(other.result).toEqual([{ n: "0" }]);
  });

  it("keeps the newest events up to its bound", async () => {
    const user = await signUp(provider);
    for (let i = 0; i < 3; i++) await expectJson(await refreshGrant(provider, user.refresh_token));
    expect(ANALYTICS_EVENT_CAPACITY).toBeGreaterThan(3);
    const { result } = await expectJson<Rows>(await query({ query: "SELECT count() AS n FROM events" }));
    expect(result).toEqual([{ n: "4" }]);
  });
});

describe("POST /internal/analytics/query", () => {
  it("answers JSONEachRow rows and a query id naming the project and branch", async () => {
    const body = await expectJson<Rows>(
      await query({ query: "SELECT 1 as value, {p:String} AS p", params: { p: "x" } }),
    );
    expect(body.result).toEqual([{ value: 1, p: "x" }]);
    expect(body.query_id).toMatch(new RegExp(`^${DEV.id}:main:[0-9a-f-]{36}$`));
    const settings = await expectJson<Rows>(
      await query({
        query: "SELECT getSetting('SQL_project_id') AS project_id, getSetting('SQL_branch_id') AS branch_id;",
      }),
    );
    expect(settings.result).toEqual([{ project_id: DEV.id, branch_id: "main" }]);
  });

  it("groups, orders by an alias and pages", async () => {
    for (let i = 0; i < 3; i++) await signUp(provider);
    await anonymousSignUp(provider);
    const { result } = await expectJson<Rows>(
      await query({
        query:
          "SELECT data.is_anonymous AS anon, count(*) AS n FROM events GROUP BY data.is_anonymous ORDER BY n DESC LIMIT 1",
      }),
    );
    expect(result).toEqual([{ anon: false, n: "3" }]);
    const paged = await expectJson<Rows>(
      await query({ query: "SELECT user_id FROM events ORDER BY event_at LIMIT 2 OFFSET 3" }),
    );
    expect(paged.result).toHaveLength(1);
  });

  it("refuses what it cannot run with ANALYTICS_QUERY_ERROR and the reason; bad bodies with SCHEMA_ERROR", async () => {
    const reasons: [string, RegExp][] = [
      ["INVALID SQL QUERY", /^Syntax error: failed at position 1/],
      ["DROP TABLE events", /necessary to have the grant DROP VIEW ON default\.events\. $/],
      ["ALTER TABLE events DELETE WHERE 1=1", /grant ALTER DELETE ON default\.events\. $/],
      ["SELECT * FROM system.users", /grant SELECT\(name, id, storage, .*, default_database\) ON system\.users\. $/],
      [
        "SELECT * FROM nope.t",
        /: 60 Unknown table expression identifier 'nope\.t' in scope SELECT \* FROM nope\.t\. $/,
      ],
      ["SELECT qurey FROM events", /: 47 Unknown expression identifier `qurey` in scope SELECT qurey FROM events\. $/],
      [
        "SELECT qurey FROM system.query_log",
        /: 47 Unknown expression identifier `qurey` in scope .*\. Maybe you meant: \['query'\]\. $/,
      ],
      ["SELECT {missing:String}", /Substitution `missing` is not set/],
      ["SELECT sleep(4)", /The maximum sleep time is 3000000 microseconds/],
      [
        "SELECT 1; SELECT 1",
        /^Syntax error \(Multi-statements are not allowed\): failed at position 9 \(end of query\)/,
      ],
      ["SELECT * FROM events SETTINGS readonly = 0", /^Cannot modify 'readonly' setting in readonly mode\. $/],
      [
        "SELECT * FROM events WHERE 1 = (SELECT count() FROM system.users)",
        /SELECT for at least one column on system\.users/,
      ],
      ["SELECT * FROM file('/etc/passwd')", /grant READ ON FILE\. $/],
      ["SELECT if(1, event_type, 1) FROM events", /: 386 There is no supertype for types String, UInt8/],
      ["SELECT arrayJoin(1)", /: 43 Argument for function arrayJoin must be Array or Map/],
      [`SELECT ${"(".repeat(500)}1${")".repeat(500)}`, /: 306 Maximum parse depth \(256\) exceeded/],
      ["SELECT 'unterminated", /unterminated/],
      // Long chains: ClickHouse's bounds on the parsed query, never the evaluator's stack (a 500 before).
      [`SELECT ${Array(20_000).fill("1").join(" + ")}`, /: 167 AST is too deep\. Maximum: 1000\. $/],
      [
        `SELECT count() FROM events WHERE ${Array(20_000).fill("1 = 1").join(" AND ")}`,
        /: 168 AST is too big\. Maximum: 50000\. $/,
      ],
      [`SELECT ${"- ".repeat(20_000)}1`, /: 306 Maximum parse depth \(256\) exceeded/],
      [`SELECT ${"NOT ".repeat(20_000)}1`, /: 306 Maximum parse depth \(256\) exceeded/],
      [`SELECT '${"é".repeat(131_072)}'`, /Max query size exceeded\. $/],
      ["SELECT {p: String", /bad query parameter/],
      [`SELECT {p:${" ".repeat(50_000)}{}`, /bad query parameter/],
    ];
    for (const [text, reason] of reasons) {
      const error = await expectKnownError(await query({ query: text }), "ANALYTICS_QUERY_ERROR", 400);
      expect(error.details?.error, text).toMatch(reason);
    }
    await expectKnownError(await query({}), "SCHEMA_ERROR", 400);
    await expectKnownError(await query({ query: "SELECT 1", timeout_ms: 120_001 }), "SCHEMA_ERROR", 400);
  });

  it("reads AND / OR chains of any length with ClickHouse's NULL logic", async () => {
    const { result } = await expectJson<Rows>(
      await query({
        query: `SELECT 1 AND NULL AND 0 AS a, NULL AND 1 AS b, NULL OR 0 AS c, 0 OR NULL OR 1 AS d, ${Array(5_000).fill("0").join(" OR ")} OR 1 AS e, ${Array(5_000).fill("1").join(" AND ")} AS f`,
      }),
    );
    expect(result).toEqual([{ a: 0, b: null, c: null, d: 1, e: 1, f: 1 }]);
  });

  it("answers IN over a long list of literals as a set would, types compared as one by one", async () => {
    const many = (n: number, item: (i: number) => string) => Array.from({ length: n }, (_, i) => item(i)).join(", ");
    const { result } = await expectJson<Rows>(
      await query({
        query: `SELECT 'v77' IN (${many(10_000, (i) => `'v${i}'`)}) AS s, 77 IN (${many(10_000, String)}) AS n, '77' IN (${many(100, String)}) AS text_number, 'v' IN ('v', 1) AS other`,
      }),
    );
    expect(result).toEqual([{ s: 1, n: 1, text_number: 1, other: 1 }]);
  });

  it("evaluates what is just within the bounds: nesting at the parser's depth, a chain at the AST's depth", async () => {
    const { result } = await expectJson<Rows>(
      await query({
        query: `SELECT ${"(".repeat(250)}1${")".repeat(250)} AS nested, ${Array(998).fill("1").join(" + ")} AS chain, ${"- ".repeat(200)}1 AS negated`,
      }),
    );
    expect(result).toEqual([{ nested: 1, chain: 998, negated: 1 }]);
  });

  it("stops a query that outruns its timeout_ms with ClickHouse's timeout error", async () => {
    await expectJson(
      await api(provider, "/internal/config/override", {
        method: "PATCH",
        headers: admin(),
        json: { config_override_string: JSON.stringify({ "apps.installed.analytics.enabled": true }) },
      }),
    );
    const user = await signUp(provider);
    for (let n = 0; n < 2; n++) {
      const events = Array.from({ length: 500 }, (_, i) => ({
        event_type: "$page-view",
        event_at_ms: i,
        data: { path: `/p${i}` },
      }));
      const batch = {
        session_replay_segment_id: crypto.randomUUID(),
        batch_id: crypto.randomUUID(),
        sent_at_ms: 1,
        events,
      };
      await expectJson(
        await api(provider, "/analytics/events/batch", {
          headers: client({ accessToken: user.access_token }),
          json: batch,
        }),
      );
    }
    // 1,001 rows × 20,000 items that are expressions (no set can stand for them): twice the work a second buys
    // (analytics-budget.ts), whatever the machine.
    const list = Array.from({ length: 20_000 }, (_, i) => -(1_000 + i)).join(",");
    const error = await expectKnownError(
      await query({ query: `SELECT count() AS n FROM events WHERE length(data.path) IN (${list})`, timeout_ms: 1_000 }),
      "ANALYTICS_QUERY_ERROR",
      400,
    );
    expect(error.details?.error).toMatch(/^Timeout exceeded: elapsed \d+\.\d{3} ms, maximum: 1000 ms\. $/);
  });

  it("matches LIKE patterns in time linear in their length", async () => {
    await signUp(provider);
    const pattern = `${"%a".repeat(200)}b`;
    const { result } = await expectJson<Rows>(
      await query({
        query: "SELECT count() AS n FROM events WHERE {text:String} LIKE {pattern:String}",
        params: { text: "a".repeat(5000), pattern },
      }),
    );
    expect(result).toEqual([{ n: "0" }]);
    const hit = await expectJson<Rows>(
      await query({ query: "SELECT 'x_y' LIKE 'x\\\\_%' AS escaped, 'xzy' LIKE 'x\\\\_%' AS literal" }),
    );
    expect(hit.result).toEqual([{ escaped: 1, literal: 0 }]);
  });
});

describe("POST /analytics/events/batch", () => {
  const enableAnalytics = () =>
    api(provider, "/internal/config/override", {
      method: "PATCH",
      headers: admin(),
      json: { config_override_string: JSON.stringify({ "apps.installed.analytics.enabled": true }) },
    });
  const segment = "00000000-0000-4000-8000-000000000001";
  const batch = (events: unknown[]) => ({
    session_replay_segment_id: segment,
    batch_id: "00000000-0000-4000-8000-000000000002",
    sent_at_ms: 1,
    events,
  });
  const upload = (accessToken: string | undefined, body: unknown) =>
    api(provider, "/analytics/events/batch", { headers: client(accessToken ? { accessToken } : {}), json: body });

  it("needs the analytics app, then a user; stores page views and clicks with the segment, half surrogates replaced", async () => {
    const user = await signUp(provider);
    const views = [
      { event_type: "$page-view", event_at_ms: 1_000, data: { path: "/a" } },
      { event_type: "$click", event_at_ms: 2_000, data: { text: "Hi \uD83D" } },
    ];
    await expectKnownError(await upload(user.access_token, batch(views)), "ANALYTICS_NOT_ENABLED", 400);
    await expectJson(await enableAnalytics());
    await expectKnownError(await upload(undefined, batch(views)), "USER_AUTHENTICATION_REQUIRED", 401);
    expect(await expectJson(await upload(user.access_token, batch(views)))).toEqual({ inserted: 2 });
    const { result } = await expectJson<Rows>(
      await query({
        query:
          "SELECT event_type, session_replay_segment_id AS segment, data.text AS text, event_at FROM events WHERE event_type != '$token-refresh' ORDER BY event_at",
      }),
    );
    expect(result).toEqual([
      { event_type: "$page-view", segment, text: null, event_at: "1970-01-01 00:00:01.000" },
      { event_type: "$click", segment, text: "Hi \uFFFD", event_at: "1970-01-01 00:00:02.000" },
    ]);
  });

  it("refuses an empty batch, more than 500 events and unknown event types (SCHEMA_ERROR)", async () => {
    await expectJson(await enableAnalytics());
    const user = await signUp(provider);
    const view = { event_type: "$page-view", event_at_ms: 1, data: {} };
    await expectKnownError(await upload(user.access_token, batch([])), "SCHEMA_ERROR", 400);
    await expectKnownError(
      await upload(user.access_token, batch(Array.from({ length: 501 }, () => view))),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(
      await upload(user.access_token, batch([{ ...view, event_type: "$custom" }])),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("reads a batch gzipped as application/octet-stream, as the published SDK sends it; refuses a gzip bomb", async () => {
    await expectJson(await enableAnalytics());
    const user = await signUp(provider);
    const gzip = async (text: string) =>
      new Uint8Array(
        await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
      );
    const send = (bytes: Uint8Array<ArrayBuffer>) =>
      provider.fetch("http://localhost:8102/api/v1/analytics/events/batch", {
        method: "POST",
        headers: { ...wire(client({ accessToken: user.access_token })), "content-type": "application/octet-stream" },
        body: bytes,
      });
    const body = JSON.stringify(batch([{ event_type: "$page-view", event_at_ms: 5, data: { path: "/zipped" } }]));
    expect(await expectJson(await send(await gzip(body)))).toEqual({ inserted: 1 });
    await expectKnownError(await send(await gzip(" ".repeat(MAX_INFLATED_BYTES + 1))), "BODY_PARSING_ERROR", 400);
    await expectKnownError(await send(new Uint8Array([0x1f, 0x8b, 1, 2, 3])), "BODY_PARSING_ERROR", 400);
  });
});
