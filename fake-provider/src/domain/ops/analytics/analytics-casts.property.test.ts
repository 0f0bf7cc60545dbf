import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QueryBudget } from "./analytics-budget.ts";
import { evaluateAnalyticsQuery, parseAnalyticsQuery } from "./analytics-evaluate.ts";
import { ClickHouseError } from "./analytics-errors.ts";

/**
 * ClickHouse's NULL rules for the conversions the real service's stats query uses (analytics-casts.ts):
 * NULLIF(a, b) is NULL when a is NULL or a = b, and a otherwise (also when b is NULL); CAST to Nullable(String) keeps
 * NULL and writes anything else as text; CAST of NULL to a non-Nullable type is refused (code 349), never a default;
 * COALESCE over NULLIF(CAST(…), '') picks the first field that is there and not empty; `CAST(x AS T)` is `CAST(x, 'T')`.
 */

async function row(query: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const budget = new QueryBudget(10_000);
  const env = { tables: {}, params, nowMillis: 0, settings: {}, maxResultRows: 10_000 };
  const rows = await evaluateAnalyticsQuery(await parseAnalyticsQuery(query, budget), env, budget);
  return rows[0]!;
}

const maybeText = fc.option(fc.constantFrom("", "a", "b", "rule-1", "0"), { nil: null });

describe("analytics casts (property)", () => {
  it("NULLIF and CAST to Nullable(String) keep ClickHouse's NULL rules", async () => {
    await fc.assert(
      fc.asyncProperty(maybeText, maybeText, async (a, b) => {
        const result = await row(
          "SELECT NULLIF({a:Nullable(String)}, {b:Nullable(String)}) AS n, " +
            "CAST({a:Nullable(String)}, 'Nullable(String)') AS c, CAST({a:Nullable(String)} AS Nullable(String)) AS c2",
          { a, b },
        );
        expect(result).toEqual({ n: a === null || (b !== null && a === b) ? null : a, c: a, c2: a });
      }),
      { numRuns: 80 },
    );
  });

  it("COALESCE(NULLIF(CAST(x), ''), NULLIF(CAST(y), '')) is the first of x, y that is neither NULL nor empty", async () => {
    await fc.assert(
      fc.asyncProperty(maybeText, maybeText, async (x, y) => {
        const result = await row(
          "SELECT COALESCE(NULLIF(CAST({x:Nullable(String)}, 'Nullable(String)'), ''), " +
            "NULLIF(CAST({y:Nullable(String)}, 'Nullable(String)'), '')) AS id",
          { x, y },
        );
        const first = [x, y].find((v) => v !== null && v !== "") ?? null;
        expect(result).toEqual({ id: first });
      }),
      { numRuns: 80 },
    );
  });

  it("writes numbers as text; refuses NULL into a non-Nullable type and text that is not a number", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -1e9, max: 1e9 }), async (n) => {
        expect(await row(`SELECT CAST(${n}, 'String') AS s, CAST('${n}', 'Int32') AS i`)).toEqual({
          s: String(n),
          i: n,
        });
      }),
      { numRuns: 40 },
    );
    const refusal = async (query: string) => {
      try {
        await row(query);
      } catch (error) {
        return error instanceof ClickHouseError ? error.code : error;
      }
      return "answered";
    };
    expect(await refusal("SELECT CAST(NULL, 'String') AS s")).toBe(349);
    expect(await refusal("SELECT CAST('x1', 'Int64') AS i")).toBe(6);
    expect(await refusal("SELECT CAST(1, 'Map(String, String)') AS m")).toBe(50);
  });
});
