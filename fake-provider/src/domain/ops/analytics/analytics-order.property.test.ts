import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QueryBudget } from "./analytics-budget.ts";
import { evaluateAnalyticsQuery, parseAnalyticsQuery } from "./analytics-evaluate.ts";

/**
 * ORDER BY with LIMIT and OFFSET (analytics-evaluate.ts sorts the rows first and builds only those the LIMIT keeps):
 * the answer is the whole result sorted the same way in JavaScript, then windowed — by a source column, by an output
 * alias, NULLs last in either direction, ties kept in source order; and with arrayJoin, ordered by its alias.
 */

async function rows(query: string): Promise<Record<string, unknown>[]> {
  const budget = new QueryBudget(10_000);
  const env = { tables: {}, params: {}, nowMillis: 0, settings: {}, maxResultRows: 10_000 };
  return evaluateAnalyticsQuery(await parseAnalyticsQuery(query, budget), env, budget);
}

describe("ORDER BY … LIMIT (property)", () => {
  it("is the whole result sorted, then windowed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 45 }),
        fc.integer({ min: 0, max: 10 }),
        async (n, modulus, descending, limit, offset) => {
          // k: an output alias with NULLs (every third row); number: the source column, the tie-breaker.
          const direction = descending ? "DESC" : "ASC";
          const answer = await rows(
            `SELECT number, if(number % 3 = 0, NULL, number % ${modulus}) AS k FROM numbers(${n}) ORDER BY k ${direction} LIMIT ${limit} OFFSET ${offset}`,
          );
          const all = Array.from({ length: n }, (_, number) => ({
            number,
            k: number % 3 === 0 ? null : number % modulus,
          }));
          const sorted = [...all].sort((a, b) => {
            if (a.k === null || b.k === null) return a.k === b.k ? 0 : a.k === null ? 1 : -1;
            return descending ? b.k - a.k : a.k - b.k;
          });
          expect(answer.map((r) => [Number(r.number), r.k === null ? null : Number(r.k)])).toEqual(
            sorted.slice(offset, offset + limit).map((r) => [r.number, r.k]),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("orders arrayJoin's rows by its alias", async () => {
    expect(await rows("SELECT arrayJoin([3, 1, 2, 5, 4]) AS x ORDER BY x DESC LIMIT 3 OFFSET 1")).toEqual([
      { x: 4 },
      { x: 3 },
      { x: 2 },
    ]);
  });
});
