import { describe, expect, it } from "vitest";
import { admin, api, DEV, expectJson, freshEmail, signUp } from "../../../test-support/api.ts";
import { FILLED, useAnalyticsCopy } from "../../../test-support/analytics-copy.ts";
import { PROJECT_TABLES } from "./analytics-catalog.ts";
import { tablesNamedIn } from "./analytics-query.ts";

/** Queries over the ClickHouse copy of the synced tables: with events, the real dashboard's pages, the bounds, what a query copies. */

const { provider, query, createUser, fillEveryTable } = useAnalyticsCopy();

describe("queries over them", () => {
  it("with events: users who refreshed a token, counted per table, aggregated", async () => {
    const a = await signUp(provider());
    const b = await signUp(provider());
    await createUser({ primary_email: "never-signed-in@example.com" });
    const active = await query(
      "SELECT primary_email FROM users WHERE id IN (SELECT user_id FROM events WHERE event_type = '$token-refresh') ORDER BY primary_email",
    );
    expect(active.map((r) => r.primary_email)).toEqual(expect.arrayContaining([a.email, b.email]));
    expect(active.map((r) => r.primary_email)).not.toContain("never-signed-in@example.com");
    const [counts] = await query(
      "SELECT (SELECT count() FROM users) AS users, (SELECT count() FROM refresh_tokens) AS tokens, (SELECT uniqExact(user_id) FROM events) AS refreshed",
    );
    expect(Number(counts!.tokens)).toBeGreaterThanOrEqual(2);
    expect(Number(counts!.users)).toBeGreaterThan(Number(counts!.refreshed) - 1);
  });

  it("every table's SELECT * answers its view's columns in order", async () => {
    await fillEveryTable();
    for (const table of FILLED) {
      const rows = await query(`SELECT * FROM ${table} LIMIT 1`);
      expect([table, Object.keys(rows[0] ?? {})]).toEqual([
        table,
        PROJECT_TABLES[table]!.columns.map(([name]) => name),
      ]);
    }
  });

  it("answers the real dashboard's table pages: a page in its sort order, and its search (ILIKE on every column as text)", async () => {
    await fillEveryTable();
    const sortedBy: Record<string, string> = { users: "signed_up_at", notification_preferences: "user_id" };
    for (const table of FILLED) {
      const order = sortedBy[table] ?? (table === "events" ? "event_at" : "created_at");
      const page = await query(`SELECT * FROM default.${table} ORDER BY \`${order}\` DESC LIMIT 50 OFFSET 0`);
      expect([table, page.length > 0]).toEqual([table, true]);
      // The search box: each column as text, case-insensitive; an upper-case search finds a lower-case project id.
      const columns = PROJECT_TABLES[table]!.columns.map(([name]) => name);
      const search = columns.map((c) => `toString(\`${c}\`) ILIKE '%${DEV.id.toUpperCase()}%'`).join(" OR ");
      const found = await query(
        `SELECT * FROM default.${table} WHERE ${search} ORDER BY \`${order}\` DESC LIMIT 50 OFFSET 0`,
      );
      expect([table, found.length]).toEqual([table, page.length]);
      const none = await query(`SELECT * FROM default.${table} WHERE toString(\`project_id\`) NOT ILIKE '%${DEV.id}%'`);
      expect([table, none]).toEqual([table, []]);
    }
  });

  it("the query's bounds hold over them: its time is spent by reading their rows", async () => {
    await createUser({ primary_email: freshEmail("slow") });
    await createUser({ primary_email: freshEmail("slow") });
    const response = await api(provider(), "/internal/analytics/query", {
      headers: admin(),
      json: { query: "SELECT sleep(1) FROM users", timeout_ms: 1_000 },
    });
    const error = await expectJson<{ code: string; details: { error: string } }>(response, 400);
    expect(error.code).toBe("ANALYTICS_QUERY_ERROR");
    expect(error.details.error).toMatch(/^Timeout exceeded: elapsed \d+\.\d{3} ms, maximum: 1000 ms\. $/);
  });

  it("a query copies only the tables its text names (none for one that reads no table)", () => {
    expect(tablesNamedIn("SELECT 1 + 1")).toEqual([]);
    expect(tablesNamedIn("SELECT count() FROM system.one")).toEqual([]);
    expect(tablesNamedIn("SELECT id FROM users WHERE id IN (SELECT user_id FROM refresh_tokens)")).toEqual([
      "refresh_tokens",
      "users",
    ]);
    // An escape may spell any name: all of them then.
    expect(tablesNamedIn("SELECT 1 FROM `t\\eams`")).toEqual(Object.keys(PROJECT_TABLES));
  });

  it("a name hidden by an escape in a quoted identifier is still read", async () => {
    const user = await createUser({ primary_email: "escaped@example.com" });
    expect(await query("SELECT id FROM `u\\sers` WHERE id = {id:String}", { id: user.id })).toEqual([{ id: user.id }]);
  });
});
