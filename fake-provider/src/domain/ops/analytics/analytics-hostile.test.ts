import { describe, expect, it } from "vitest";
import { MAX_RETAINED_ROWS, QueryBudget } from "./analytics-budget.ts";
import { analyticsErrorText, CH, ClickHouseError } from "./analytics-errors.ts";
import { evaluateAnalyticsQuery, parseAnalyticsQuery, type QueryEnvironment } from "./analytics-evaluate.ts";

/**
 * Queries written to exhaust the emulator, run in process: each ends with ClickHouse's refusal (timeout, result size,
 * memory, parse depth) instead of running on or holding rows without bound. None waits: sleep() and the units of work
 * are spent from the budget, not the clock.
 */

const env: QueryEnvironment = {
  tables: { events: [], "system.one": [{ dummy: 0 }] },
  params: {},
  nowMillis: 0,
  settings: {},
  maxResultRows: 10_000,
};

async function refusal(query: string, timeoutMs = 1_000): Promise<ClickHouseError> {
  const budget = new QueryBudget(timeoutMs);
  try {
    await evaluateAnalyticsQuery(await parseAnalyticsQuery(query, budget), env, budget);
  } catch (error) {
    if (error instanceof ClickHouseError) return error;
    throw error;
  }
  throw new Error(`${query.slice(0, 80)} was answered`);
}

describe("hostile analytics queries", () => {
  it("stops a generated table at the result's bound after one block, as ClickHouse counts it", async () => {
    const error = await refusal("SELECT * FROM numbers(1000000000000)");
    expect(analyticsErrorText(error)).toBe(
      "Limit for result exceeded, max rows: 10.00 thousand, current rows: 65.41 thousand. ",
    );
  });

  it("stops an aggregate over a generated table by its time or the rows it may hold, never running on", async () => {
    for (const query of [
      "SELECT count() FROM numbers(1000000000000)",
      "SELECT number FROM numbers(1000000000000) ORDER BY number DESC LIMIT 1",
    ]) {
      const error = await refusal(query);
      expect([CH.TIMEOUT_EXCEEDED, CH.MEMORY_LIMIT_EXCEEDED], query).toContain(error.code);
    }
    expect(MAX_RETAINED_ROWS).toBeLessThanOrEqual(2_000_000);
  });

  it("spends sleep() from the budget: past the timeout it is the timeout, past 3 s ClickHouse's own refusal", async () => {
    expect(analyticsErrorText(await refusal("SELECT sleep(3)"))).toMatch(
      /^Timeout exceeded: elapsed [\d.]+ ms, maximum: 1000 ms\. $/,
    );
    expect((await refusal("SELECT sleep(100)")).code).toBe(CH.TOO_SLOW);
    expect(analyticsErrorText(await refusal("SELECT sleep(1) FROM numbers(100)", 10_000))).toMatch(/^Timeout exceeded/);
  });

  it("keeps a chain of CTEs that each read the last twice linear, and bounds the rows it doubles to", async () => {
    const chain = Array.from({ length: 40 }, (_, i) =>
      i === 0 ? "t0 AS (SELECT 1 AS x)" : `t${i} AS (SELECT x FROM t${i - 1} UNION ALL SELECT x FROM t${i - 1})`,
    );
    const error = await refusal(`WITH ${chain.join(", ")} SELECT count() FROM t39`);
    expect([CH.TIMEOUT_EXCEEDED, CH.MEMORY_LIMIT_EXCEEDED]).toContain(error.code);
  });

  it("refuses a CTE that reads itself, and subqueries nested past the parser's depth", async () => {
    expect((await refusal("WITH a AS (SELECT * FROM a) SELECT * FROM a")).code).toBe(CH.UNKNOWN_TABLE);
    const nested = `SELECT ${"(SELECT ".repeat(300)}1${")".repeat(300)}`;
    expect((await refusal(nested)).code).toBe(CH.TOO_DEEP_RECURSION);
  });

  it("reads table aliases, GROUP BY a SELECT alias and % as ClickHouse does", async () => {
    const budget = new QueryBudget(10_000);
    const run = async (query: string) => evaluateAnalyticsQuery(await parseAnalyticsQuery(query, budget), env, budget);
    expect(
      await run("SELECT number % 3 AS m, count() AS c FROM numbers(10) AS n WHERE n.number < 9 GROUP BY m ORDER BY m"),
    ).toEqual([
      { m: 0, c: "3" },
      { m: 1, c: "3" },
      { m: 2, c: "3" },
    ]);
    expect(await run("SELECT t.x AS x FROM (SELECT 1 AS x) AS t WHERE t.x = 1")).toEqual([{ x: 1 }]);
  });
});
