import { castValue, nullIf } from "../analytics/analytics-casts.ts";
import { compare, type Value } from "../analytics/analytics-values.ts";
import type { OpContext } from "../context.ts";

/**
 * GET /internal/sign-up-rules-stats: counted from the project's `$sign-up-rule-trigger` analytics events
 * (analytics-events.ts), as the real service counts them from ClickHouse: per rule, the triggers of the last 48 hours
 * hour by hour and those of all time; per action, the last 48 hours'. The rule id is read as the real query reads it,
 * `COALESCE(NULLIF(CAST(data.rule_id, 'Nullable(String)'), ''), NULLIF(CAST(data.ruleId, …), ''))`, and an event
 * with none is left out. "All time" is as far back as the emulator keeps events (analytics-events.ts' bound).
 */

const statsHours = 48;
const hourMillis = 3_600_000;
type Action = "allow" | "reject" | "restrict" | "log";

/** The event's rule id, read as the real stats query reads it (snake_case first, then the older camelCase). */
export function triggerRuleId(data: unknown): string | null {
  const field = (key: string): Value =>
    data !== null && typeof data === "object" && !Array.isArray(data) && Object.hasOwn(data, key)
      ? ((data as Record<string, Value>)[key] ?? null)
      : null;
  const read = (key: string) => nullIf(castValue(field(key), "Nullable(String)"), "", compare);
  const id = read("rule_id") ?? read("ruleId");
  return typeof id === "string" ? id : null;
}

function actionOf(data: unknown): Action | null {
  const action = data !== null && typeof data === "object" ? (data as { action?: unknown }).action : null;
  return action === "allow" || action === "reject" || action === "restrict" || action === "log" ? action : null;
}

export function signUpRulesStats(ctx: OpContext, projectId: string) {
  const currentHour = Math.floor(ctx.now / hourMillis) * hourMillis;
  const firstHour = currentHour - (statsHours - 1) * hourMillis;
  const hourKeys = Array.from({ length: statsHours }, (_, i) => new Date(firstHour + i * hourMillis).toISOString());
  const byAction = { allow: 0, reject: 0, restrict: 0, log: 0 };
  const recentByRule = new Map<string, Map<number, number>>();
  const allTime = new Map<string, number>();
  let totalRecent = 0;
  for (const event of ctx.tables.analyticsEvents.values()) {
    if (event.eventType !== "$sign-up-rule-trigger" || event.projectId !== projectId) continue;
    const ruleId = triggerRuleId(event.data);
    if (ruleId === null) continue;
    allTime.set(ruleId, (allTime.get(ruleId) ?? 0) + 1);
    if (event.eventAtMillis < firstHour) continue;
    totalRecent++;
    const action = actionOf(event.data);
    if (action) byAction[action]++;
    const hours = recentByRule.get(ruleId) ?? new Map<number, number>();
    const hour = Math.floor(event.eventAtMillis / hourMillis) * hourMillis;
    hours.set(hour, (hours.get(hour) ?? 0) + 1);
    recentByRule.set(ruleId, hours);
  }
  const ruleIds = [...new Set([...recentByRule.keys(), ...allTime.keys()])].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return {
    rule_triggers: ruleIds.map((ruleId) => {
      const hours = recentByRule.get(ruleId);
      const total = hours ? [...hours.values()].reduce((a, b) => a + b, 0) : 0;
      return {
        rule_id: ruleId,
        total_count: total,
        all_time_count: allTime.get(ruleId) ?? total,
        hourly_counts: hourKeys.map((hour, i) => ({ hour, count: hours?.get(firstHour + i * hourMillis) ?? 0 })),
      };
    }),
    analytics_hours: statsHours,
    total_triggers: totalRecent,
    triggers_by_action: byAction,
  };
}
