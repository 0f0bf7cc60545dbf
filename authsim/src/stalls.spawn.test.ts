import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { startCli, type StartedCli } from "authsim/testing";

/**
 * Issue 31, findings 1 and 2, against the real dev server (what `npm start` runs) over HTTP: a pattern from config or a
 * query from the admin must neither take long nor hold up the server. Each slow request of the issue (seconds, while
 * every other request waited as long) is sent, and while it runs, GET /api/v1 is asked again and again.
 *
 * Bounds, generous for a loaded laptop and far below what the issue measured (4 to 7 s, every other request waiting as
 * long), each counted beyond an idle GET's time at the moment (what the machine adds): a sign-up or a redirect check
 * answers within 1 s; an analytics query within its timeout_ms + 100 ms; GET /api/v1 meanwhile within 100 ms
 * (expectServed).
 */

let cli: StartedCli;
beforeAll(async () => {
  cli = await startCli();
}, 120_000);
afterAll(() => cli?.stop());

const keys = devProjectSeed.keys;
const headers = (access: "client" | "admin"): Record<string, string> => ({
  "content-type": "application/json",
  "x-stack-access-type": access,
  "x-stack-project-id": devProjectSeed.id,
  "x-stack-publishable-client-key": keys.publishable_client_key,
  ...(access === "admin"
    ? {
        "x-stack-secret-server-key": keys.secret_server_key,
        "x-stack-super-secret-admin-key": keys.super_secret_admin_key,
      }
    : {}),
});
const post = (path: string, access: "client" | "admin", body: unknown, method = "POST") =>
  fetch(`${cli.url}/api/v1${path}`, { method, headers: headers(access), body: JSON.stringify(body) });
const override = async (config: Record<string, unknown>) => {
  const response = await post(
    "/internal/config/override",
    "admin",
    { config_override_string: JSON.stringify(config) },
    "PATCH",
  );
  expect(response.status, await response.clone().text()).toBe(200);
};

/** Sends the slow request and, until it answers, GET /api/v1 one after another: its answer, its time, the GETs' times. */
async function whileAsking(
  send: () => Promise<Response>,
): Promise<{ response: Response; body: string; millis: number; gets: number[]; idle: number }> {
  const idle = await idleLatency();
  const gets: number[] = [];
  let done = false;
  const started = performance.now();
  const sent = send();
  const probing = (async () => {
    do {
      const asked = performance.now();
      const root = await fetch(`${cli.url}/api/v1`);
      await root.text();
      gets.push(performance.now() - asked);
    } while (!done);
  })();
  const response = await sent;
  const body = await response.text();
  const millis = performance.now() - started;
  done = true;
  await probing;
  return { response, body, millis, gets, idle };
}

/** The slowest of a few GET /api/v1 on the idle server: what the machine itself adds at the moment (`npm test` shares it). */
async function idleLatency(): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < 5; i++) {
    const asked = performance.now();
    await (await fetch(`${cli.url}/api/v1`)).text();
    slowest = Math.max(slowest, performance.now() - asked);
  }
  return slowest;
}

/**
 * GET /api/v1 was served meanwhile: typically within 100 ms (the median), none held for more than 1 s, each beyond
 * what the machine adds to an idle server's answer at the moment. A stall, as before, holds a GET for the whole slow
 * request: seconds, or forever for the inputs below. The slowest GET's bound is loose because `npm test` runs other
 * files on the same two cores, and a starved child server has been seen holding one GET 300 ms without any stall.
 */
function expectServed(gets: number[], idle: number): void {
  const sorted = [...gets].sort((a, b) => a - b);
  const report = `GET /api/v1 times (ms): ${gets.map((g) => g.toFixed(0)).join(", ")}; idle: ${idle.toFixed(0)}`;
  expect(sorted.length).toBeGreaterThan(0);
  expect(sorted[Math.floor((sorted.length - 1) / 2)]! - idle, report).toBeLessThanOrEqual(100);
  expect(sorted.at(-1)! - idle, report).toBeLessThanOrEqual(1_000);
}

describe("patterns from config or input run in linear time (finding 1)", () => {
  it("a sign-up rule's backtracking matches() against a long address: the sign-up answers within 1 s", async () => {
    await override({
      "auth.signUpRules.corp": {
        enabled: true,
        displayName: "corp",
        priority: 0,
        condition: 'email.matches("^([a-z0-9]+)+@corp\\\\.example$")',
        action: { type: "reject" },
      },
    });
    // Matches normal addresses: a corp address is rejected by the rule.
    const corp = await post("/auth/password/sign-up", "client", {
      email: "ada@corp.example",
      password: "correct horse battery",
    });
    expect(corp.status).toBe(403);
    // 30 characters took 4 s before, each one more doubling it; this one has 200 (an address has at most 254), then a
    // character the pattern refuses: the rule does not match, and the sign-up goes through.
    const { response, millis, gets, idle } = await whileAsking(() =>
      post("/auth/password/sign-up", "client", {
        email: `${"a".repeat(200)}_@corp.example`,
        password: "correct horse battery",
      }),
    );
    expect(response.status).toBe(200);
    expect(millis - idle).toBeLessThanOrEqual(1_000);
    expectServed(gets, idle);
  });

  it("a trusted domain's wildcards against a long callback host: the redirect check answers within 1 s", async () => {
    await override({
      "domains.allowLocalhost": false,
      "domains.trustedDomains.preview": { baseUrl: "https://*-*-*.preview.example.com", handlerPath: "/handler" },
    });
    const callback = (host: string) =>
      post("/auth/otp/send-sign-in-code", "client", {
        email: "grace@example.com",
        callback_url: `https://${host}/handler/magic-link-callback`,
      });
    expect((await callback("a-b-c.preview.example.com")).status).toBe(200);
    // 5,000 characters: a backtracking regex tries each way of splitting them at the hyphens (cubic), for seconds.
    const { response, body, millis, gets, idle } = await whileAsking(() =>
      callback(`${"a-".repeat(2_500)}a.preview.example.org`),
    );
    expect(response.headers.get("x-stack-known-error"), body).toBe("REDIRECT_URL_NOT_WHITELISTED");
    expect(millis - idle).toBeLessThanOrEqual(1_000);
    expectServed(gets, idle);
  });
});

describe("analytics queries are bounded (finding 2)", () => {
  beforeAll(async () => {
    await override({ "apps.installed.analytics.enabled": true });
    const signedUp = await post("/auth/password/sign-up", "client", {
      email: "events@example.com",
      password: "correct horse battery",
    });
    const { access_token } = (await signedUp.json()) as { access_token: string };
    // 1,001 events, as in the issue (batches of at most 500).
    for (const size of [500, 500, 1]) {
      const events = Array.from({ length: size }, (_, i) => ({
        event_type: "$page-view",
        event_at_ms: 1_000 + i,
        data: { path: `/p${i}` },
      }));
      const batch = {
        session_replay_segment_id: crypto.randomUUID(),
        batch_id: crypto.randomUUID(),
        sent_at_ms: 1,
        events,
      };
      const uploaded = await fetch(`${cli.url}/api/v1/analytics/events/batch`, {
        method: "POST",
        headers: { ...headers("client"), "x-stack-access-token": access_token },
        body: JSON.stringify(batch),
      });
      expect(uploaded.status, await uploaded.text()).toBe(200);
    }
  }, 60_000);

  const query = (text: string, params: Record<string, unknown> = {}) =>
    post("/internal/analytics/query", "admin", { query: text, params, timeout_ms: 1_000 });

  it("a long IN list or LIKE over every event: an answer or ClickHouse's timeout within timeout_ms + 100 ms, the server serving meanwhile", async () => {
    // The cases: 10,000 items took 7.4 s; a 20,000-character LIKE 4.4 s.
    const list = Array.from({ length: 10_000 }, (_, i) => `'v${i}'`).join(", ");
    const cases = [
      () => query(`SELECT count() AS n FROM events WHERE data.path IN (${list}) OR event_type IN (${list})`),
      () =>
        query("SELECT count() AS n FROM events WHERE {t:String} LIKE {p:String}", {
          t: "ab".repeat(10_000),
          p: `%${"a_".repeat(10)}c%`,
        }),
      () => query("SELECT count() AS n FROM events WHERE data.path LIKE {p:String}", { p: `%${"_%".repeat(10_000)}x` }),
    ];
    for (const send of cases) {
      const { response, body, millis, gets, idle } = await whileAsking(send);
      expect(response.status, body).toBeLessThan(500);
      if (response.status !== 200) {
        expect(response.headers.get("x-stack-known-error")).toBe("ANALYTICS_QUERY_ERROR");
        expect(JSON.parse(body).details.error).toMatch(
          /^Timeout exceeded: elapsed [\d.]+ ms, maximum: 1000 ms\. $|^Estimated query execution time is too long/,
        );
      }
      expect(millis - idle).toBeLessThanOrEqual(1_100);
      expectServed(gets, idle);
    }
  });

  it("a 20,000-term chain (+, AND, unary minus) is ANALYTICS_QUERY_ERROR, never a 500", async () => {
    for (const text of [
      `SELECT ${Array(20_000).fill("1").join(" + ")} AS n`,
      `SELECT count() FROM events WHERE ${Array(20_000).fill("1 = 1").join(" AND ")}`,
      `SELECT ${"- ".repeat(20_000)}1 AS n`,
    ]) {
      const response = await query(text);
      const body = await response.text();
      expect(response.status, body).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBe("ANALYTICS_QUERY_ERROR");
      expect(body).not.toMatch(/\bat \S+ \(|\.ts:\d+/);
    }
  });
});
