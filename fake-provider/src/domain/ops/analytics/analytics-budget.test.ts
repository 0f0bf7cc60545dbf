import { describe, expect, it } from "vitest";
import { AnalyticsQueryError, MAX_SLICE_UNITS, QueryBudget, SERVER_CAP_MS, UNITS_PER_MS } from "./analytics-budget.ts";
import { CH } from "./analytics-errors.ts";

/** An analytics query's budget (analytics-budget.ts), on a monotonic clock the test moves. */

function budgetAt(timeoutMs: number) {
  const clock = { now: 0 };
  return { clock, budget: new QueryBudget(timeoutMs, () => clock.now) };
}

describe("an analytics query's budget", () => {
  it("runs out after the units its timeout buys, with ClickHouse's wording, whatever the wall clock says", async () => {
    const { budget } = budgetAt(1_000);
    for (let i = 0; i < 1_000; i++) {
      for (let j = 0; j < UNITS_PER_MS / 1_000; j++) budget.charge(1_000);
      await budget.checkpoint();
    }
    expect(() => budget.charge(1)).toThrow(
      new AnalyticsQueryError("Timeout exceeded: elapsed 1000.000 ms, maximum: 1000 ms", CH.TIMEOUT_EXCEEDED),
    );
  });

  it("runs out when the wall clock passes the timeout, work or not", async () => {
    const { clock, budget } = budgetAt(1_000);
    budget.charge(10);
    clock.now = 1_000.5;
    await expect(budget.checkpoint()).rejects.toThrow(/^Timeout exceeded: elapsed 1000\.500 ms, maximum: 1000 ms$/);
    // Read between rows, and every few thousand units within one.
    const other = budgetAt(1_000);
    other.clock.now = 2_000;
    expect(() => {
      for (let i = 0; i < 10_000; i++) other.budget.charge(1);
    }).toThrow(/^Timeout exceeded: elapsed 2000\.000 ms/);
  });

  it("caps a timeout at the server's own bound", async () => {
    const { clock, budget } = budgetAt(120_000);
    clock.now = SERVER_CAP_MS + 1;
    await expect(budget.checkpoint()).rejects.toThrow(`maximum: ${SERVER_CAP_MS} ms`);
  });

  it("refuses one row that alone needs more work than a slice between yields", async () => {
    const { budget } = budgetAt(120_000);
    budget.charge(MAX_SLICE_UNITS);
    await budget.checkpoint();
    budget.charge(MAX_SLICE_UNITS);
    expect(() => budget.charge(1)).toThrow(/^Estimated query execution time is too long/);
  });

  it("yields to the event loop once a slice has run for a few milliseconds", async () => {
    const { clock, budget } = budgetAt(10_000);
    const order: string[] = [];
    setTimeout(() => order.push("other request"), 0);
    await budget.checkpoint();
    order.push("row 1");
    clock.now = 50;
    await budget.checkpoint();
    order.push("row 2");
    expect(order).toEqual(["row 1", "other request", "row 2"]);
  });
});
