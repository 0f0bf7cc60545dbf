import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { defaultOf } from "./analytics-joins.ts";

/** JOINs in the analytics query (analytics-joins.ts) over the synced tables and events. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

type Rows = Record<string, unknown>[];
const run = (query: string, timeout_ms?: number) =>
  api(provider, "/internal/analytics/query", {
    headers: admin(),
    json: { query, ...(timeout_ms ? { timeout_ms } : {}) },
  });
const query = async (text: string, timeout?: number) =>
  (await expectJson<{ result: Rows }>(await run(text, timeout))).result;
const refused = async (text: string) =>
  (await expectKnownError(await run(text), "ANALYTICS_QUERY_ERROR", 400)).details?.error as string;
const createUser = async (email: string) =>
  expectJson<{ id: string }>(await api(provider, "/users", { headers: server(), json: { primary_email: email } }), 201);

describe("JOIN", () => {
  it("INNER JOIN events with users: each user's token refreshes, by email", async () => {
    const a = await signUp(provider);
    const b = await signUp(provider);
    await createUser("no-session@example.com");
    const rows = await query(
      "SELECT u.primary_email AS email, count() AS refreshes FROM events AS e INNER JOIN users AS u ON e.user_id = toString(u.id) " +
        "WHERE e.event_type = '$token-refresh' GROUP BY email ORDER BY email",
    );
    expect(rows).toEqual([a.email, b.email].sort().map((email) => ({ email, refreshes: "1" })));
  });

  it("LEFT JOIN: a row with no match reads the right table's defaults (join_use_nulls = 0), NULL only where Nullable", async () => {
    const user = await createUser("lonely@example.com");
    expect(
      await query(
        "SELECT u.primary_email, e.event_type, e.user_id, e.event_at FROM users u LEFT JOIN events e ON e.user_id = u.id",
      ),
    ).toEqual([
      {
        "u.primary_email": "lonely@example.com",
        "e.event_type": "",
        "e.user_id": null,
        "e.event_at": "1970-01-01 00:00:00.000",
      },
    ]);
    // An INNER JOIN drops it.
    expect(await query("SELECT u.id FROM users u JOIN events e ON e.user_id = u.id")).toEqual([]);
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("USING, several keys, and SELECT * naming a column both tables have by its table", async () => {
    const user = await signUp(provider);
    const team = await expectJson<{ id: string }>(
      await api(provider, "/teams", { headers: server(), json: { display_name: "Join Team" } }),
      201,
    );
    await expectJson(
      await api(provider, `/team-memberships/${team.id}/${user.user_id}`, { headers: server(), json: {} }),
      201,
    );
    const using = await query(
      "SELECT team_id, user_id, id FROM team_member_profiles JOIN team_permissions USING (team_id, user_id) ORDER BY id",
    );
    expect(using.length).toBeGreaterThan(0);
    expect(using.every((r) => r.team_id === team.id && r.user_id === user.user_id)).toBe(true);

    const [star] = await query("SELECT * FROM teams t JOIN team_member_profiles m ON m.team_id = t.id");
    expect(Object.keys(star!)).toEqual([
      "project_id",
      "branch_id",
      "id",
      "display_name",
      "profile_image_url",
      "created_at",
      "client_metadata",
      "client_read_only_metadata",
      "server_metadata",
      "m.project_id",
      "m.branch_id",
      "team_id",
      "user_id",
      "m.display_name",
      "m.profile_image_url",
      "m.created_at",
    ]);
    expect([star!.display_name, star!["m.display_name"], star!.team_id]).toEqual(["Join Team", null, team.id]);
  });

  it("CROSS JOIN and a condition that is no equality pair every row with every row", async () => {
    await createUser("x1@example.com");
    await createUser("x2@example.com");
    expect(await query("SELECT count() AS n FROM users CROSS JOIN numbers(3) AS n3")).toEqual([{ n: "6" }]);
    expect(await query("SELECT count() AS n FROM users u JOIN numbers(3) AS k ON k.number < 2")).toEqual([{ n: "4" }]);
    // numbers' column: an unmatched row reads 0, printed as its values are.
    expect(
      await query("SELECT a.number, b.number FROM numbers(2) AS a LEFT JOIN numbers(1) AS b ON a.number = b.number"),
    ).toEqual([
      { "a.number": 0, "b.number": 0 },
      { "a.number": 1, "b.number": 0 },
    ]);
  });

  it("an equality is matched through a hash: a join of 100,000 rows with 100,000 stays within the query's work", async () => {
    // Pair by pair it would take 10^10 steps, far past any budget.
    expect(
      await query(
        "SELECT count() AS n FROM numbers(100000) AS a JOIN numbers(100000) AS b ON a.number = b.number",
        30_000,
      ),
    ).toEqual([{ n: "100000" }]);
  });

  it("refuses as ClickHouse does: an unknown column of a joined table, a table the user may not read, RIGHT JOIN", async () => {
    expect(await refused("SELECT u.nope FROM users u JOIN events e ON e.user_id = u.id")).toMatch(
      /: 47 Unknown expression identifier `u\.nope` in scope SELECT u\.nope FROM users u JOIN/,
    );
    expect(await refused("SELECT 1 FROM users u JOIN system.users s ON 1 = 1")).toMatch(
      /Not enough privileges\. To execute this query, it's necessary to have the grant SELECT for at least one column on system\.users/,
    );
    expect(await refused("SELECT 1 FROM users RIGHT JOIN events ON 1 = 1")).toMatch(/does not support RIGHT JOIN/);
  });
});

describe("defaultOf", () => {
  it("is ClickHouse's default of each type a LEFT JOIN fills", () => {
    expect(
      [
        "String",
        "LowCardinality(String)",
        "Nullable(String)",
        "UInt8",
        "Int64",
        "UUID",
        "DateTime64(3, 'UTC')",
        "JSON",
      ].map(defaultOf),
    ).toEqual(["", "", null, 0, "0", "00000000-0000-0000-0000-000000000000", { dateTime: 0 }, {}]);
  });
});
