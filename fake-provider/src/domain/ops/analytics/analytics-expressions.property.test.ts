import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { QueryBudget } from "./analytics-budget.ts";
import { evaluateAnalyticsQuery, parseAnalyticsQuery, type QueryEnvironment } from "./analytics-evaluate.ts";

/**
 * The evaluator's comparison and NULL rules over many values: a comparison with NULL is NULL; NOT NULL is NULL;
 * AND is 0 when any operand is 0 (even beside a NULL), else NULL when any is NULL; OR is 1 when any is 1, else NULL
 * when any is NULL; ordering of numbers, of text and of a number with numeric text agrees with the values'.
 */

const env = (params: Record<string, unknown>): QueryEnvironment => ({
  tables: {},
  params,
  nowMillis: 0,
  settings: {},
  maxResultRows: 10_000,
});

async function row(query: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const budget = new QueryBudget(10_000);
  const rows = await evaluateAnalyticsQuery(await parseAnalyticsQuery(query, budget), env(params), budget);
  return rows[0]!;
}

const tri = fc.constantFrom<0 | 1 | null>(0, 1, null);
const sql = (v: 0 | 1 | null) => (v === null ? "NULL" : String(v));

describe("analytics expressions (property)", () => {
  it("AND / OR / NOT follow three-valued logic", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tri, { minLength: 2, maxLength: 5 }), async (values) => {
        const and = values.includes(0) ? 0 : values.includes(null) ? null : 1;
        const or = values.includes(1) ? 1 : values.includes(null) ? null : 0;
        const first = values[0]!;
        const result = await row(
          `SELECT ${values.map(sql).join(" AND ")} AS a, ${values.map(sql).join(" OR ")} AS o, NOT ${sql(first)} AS n`,
        );
        expect(result).toEqual({ a: and, o: or, n: first === null ? null : 1 - first });
      }),
      { numRuns: 60 },
    );
  });

  it("orders numbers, texts and a number against numeric text as their values; NULL compares to NULL", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1e6, max: 1e6 }), async (x, y) => {
        const result = await row(
          "SELECT {x:Int64} < {y:Int64} AS lt, {x:Int64} = {y:String} AS eq_text, {x:Int64} >= {y:Int64} AS ge, " +
            "{x:Int64} = NULL AS with_null, {x:Int64} IN ({y:Int64}, NULL) AS listed",
          { x, y: String(y) },
        );
        expect(result).toEqual({
          lt: x < y ? 1 : 0,
          eq_text: x === y ? 1 : 0,
          ge: x >= y ? 1 : 0,
          with_null: null,
          listed: x === y ? 1 : 0,
        });
      }),
      { numRuns: 60 },
    );
  });

  it("keeps a row in WHERE only when its condition is true, never when NULL", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(tri, { minLength: 1, maxLength: 6 }), async (conditions) => {
        const union = conditions.map((c, i) => `SELECT ${i} AS i FROM system.one WHERE ${sql(c)}`).join(" UNION ALL ");
        const budget = new QueryBudget(10_000);
        const rows = await evaluateAnalyticsQuery(
          await parseAnalyticsQuery(union, budget),
          { ...env({}), tables: { "system.one": [{ dummy: 0 }] } },
          budget,
        );
        expect(rows.map((r) => r.i)).toEqual(conditions.flatMap((c, i) => (c === 1 ? [i] : [])));
      }),
      { numRuns: 40 },
    );
  });
});
