import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QueryBudget } from "./analytics-budget.ts";
import { evaluateAnalyticsQuery, parseAnalyticsQuery } from "./analytics-evaluate.ts";

/**
 * A JOIN's equality matched through its hash (analytics-joins.ts) answers what checking every pair answers: the same
 * condition written so that it is no equality (`NOT (x != y)`) takes the pair-by-pair path. For INNER and LEFT JOINs,
 * over small tables with repeated keys, keys that match nothing, and a further condition beside the equality.
 */

async function rows(query: string): Promise<Record<string, unknown>[]> {
  const budget = new QueryBudget(10_000);
  const env = { tables: {}, params: {}, nowMillis: 0, settings: {}, maxResultRows: 10_000 };
  return evaluateAnalyticsQuery(await parseAnalyticsQuery(query, budget), env, budget);
}

describe("JOIN (property)", () => {
  it("matching through the hash answers what checking every pair answers", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 5 }),
        fc.constantFrom("JOIN", "LEFT JOIN"),
        fc.boolean(),
        async (n, m, p, q, join, extra) => {
          const also = extra ? " AND a.number <= b.number + 3" : "";
          const select = (on: string) =>
            `SELECT a.number AS x, b.number AS y FROM numbers(${n}) AS a ${join} numbers(${m}) AS b ON ${on}${also} ORDER BY x, y`;
          const hashed = await rows(select(`a.number % ${p} = b.number % ${q}`));
          const paired = await rows(select(`NOT (a.number % ${p} != b.number % ${q})`));
          expect(hashed).toEqual(paired);
          if (join === "JOIN") expect(hashed.every((r) => Number(r.x) % p === Number(r.y) % q)).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });
});
