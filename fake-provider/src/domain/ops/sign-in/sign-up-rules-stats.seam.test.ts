import { describe, expect, it } from "vitest";
import { devProjectSeed as DEV } from "@authsim/fixtures";
import { opSeam } from "../../../test-support/op-seam.ts";
import { START_MILLIS } from "../../../test-support/start.ts";
import { nextSequence } from "../../store/store.ts";
import { signUpRulesStats, triggerRuleId } from "./sign-up-rules-stats.ts";

/** The stats route counts `$sign-up-rule-trigger` events as the real service's ClickHouse query reads them. */

const hour = 3_600_000;

function seamWithTriggers(events: { data: unknown; atMillis: number; projectId?: string }[]) {
  const seam = opSeam();
  return seam
    .run((ctx) => {
      for (const e of events) {
        const seq = nextSequence(ctx.tables, "analyticsEvents");
        ctx.tables.analyticsEvents.set(String(seq).padStart(12, "0"), {
          seq,
          eventType: "$sign-up-rule-trigger",
          eventAtMillis: e.atMillis,
          projectId: e.projectId ?? DEV.id,
          userId: null,
          refreshTokenId: null,
          data: e.data,
        });
      }
    })
    .then(() => seam);
}

describe("sign-up rule stats from events", () => {
  it("reads rule_id, then the older ruleId; an empty or missing id leaves the event out", () => {
    expect(triggerRuleId({ rule_id: "a", ruleId: "b" })).toBe("a");
    expect(triggerRuleId({ rule_id: "", ruleId: "b" })).toBe("b");
    expect(triggerRuleId({ rule_id: null, ruleId: "b" })).toBe("b");
    expect(triggerRuleId({ ruleId: "" })).toBeNull();
    expect(triggerRuleId({})).toBeNull();
    expect(triggerRuleId(null)).toBeNull();
    // A number is read as its text, as CAST(…, 'Nullable(String)') reads it.
    expect(triggerRuleId({ rule_id: 7 })).toBe("7");
  });

  it("counts the last 48 hours by hour and action, all time per rule, this project only", async () => {
    const now = START_MILLIS;
    const seam = await seamWithTriggers([
      { data: { rule_id: "new", action: "log" }, atMillis: now },
      { data: { ruleId: "old-shape", action: "reject" }, atMillis: now - 2 * hour },
      { data: { rule_id: "new", action: "restrict" }, atMillis: now - 50 * hour },
      { data: { rule_id: "", action: "allow" }, atMillis: now },
      { data: { rule_id: "new", action: "log" }, atMillis: now, projectId: "other-project" },
    ]);
    const out = await seam.run((ctx) => signUpRulesStats(ctx, DEV.id));
    if (!out.ok) throw out.error;
    const stats = out.value;
    expect(stats.total_triggers).toBe(2);
    expect(stats.triggers_by_action).toEqual({ allow: 0, reject: 1, restrict: 0, log: 1 });
    expect(stats.rule_triggers.map((r) => [r.rule_id, r.total_count, r.all_time_count])).toEqual([
      ["new", 1, 2],
      ["old-shape", 1, 1],
    ]);
    const oldShape = stats.rule_triggers[1]!.hourly_counts;
    const currentHour = Math.floor(now / hour) * hour;
    expect(oldShape.filter((h) => h.count > 0)).toEqual([
      { hour: new Date(currentHour - 2 * hour).toISOString(), count: 1 },
    ]);
  });
});
