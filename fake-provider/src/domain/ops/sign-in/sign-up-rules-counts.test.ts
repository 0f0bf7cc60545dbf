import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  START_MILLIS,
  admin,
  api,
  expectJson,
  expectKnownError,
  freshEmail,
  newProvider,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";
import { passwordSignUp, rule, setRules } from "../../../test-support/sign-up-rules.ts";

/** The sign-up rules' trigger counts (GET /internal/sign-up-rules-stats), from the rules' own sign-ups over HTTP. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const rules = (override: Record<string, unknown>) => setRules(provider, override);
const signUpRaw = (email: string, extra: Record<string, string> = {}) => passwordSignUp(provider, email, extra);

describe("GET /internal/sign-up-rules-stats", () => {
  it("counts triggers per rule and action over 48 hours, hour by hour, even for refused sign-ups", async () => {
    const empty = await expectJson<{ rule_triggers: unknown[]; total_triggers: number }>(
      await api(provider, "/internal/sign-up-rules-stats", { headers: admin() }),
    );
    expect(empty).toMatchObject({
      rule_triggers: [],
      analytics_hours: 48,
      total_triggers: 0,
      triggers_by_action: { allow: 0, reject: 0, restrict: 0, log: 0 },
    });
    await rules({
      "auth.signUpRules.log": rule(1, "true", "log"),
      "auth.signUpRules.no-blocked": rule(0, 'email.contains("blocked")', "reject"),
    });
    await expectJson(await signUpRaw(freshEmail()));
    await expectKnownError(await signUpRaw(freshEmail("blocked")), "SIGN_UP_REJECTED", 403);
    const stats = await expectJson<{
      rule_triggers: {
        rule_id: string;
        total_count: number;
        all_time_count: number;
        hourly_counts: { hour: string; count: number }[];
      }[];
    }>(await api(provider, "/internal/sign-up-rules-stats", { headers: admin() }));
    expect(stats).toMatchObject({
      total_triggers: 3,
      triggers_by_action: { allow: 0, reject: 1, restrict: 0, log: 2 },
    });
    expect(stats.rule_triggers.map((r) => [r.rule_id, r.total_count, r.all_time_count])).toEqual([
      ["log", 2, 2],
      ["no-blocked", 1, 1],
    ]);
    const hours = stats.rule_triggers[0]!.hourly_counts;
    expect(hours).toHaveLength(48);
    expect(hours.at(-1)).toEqual({
      hour: new Date(Math.floor(START_MILLIS / 3_600_000) * 3_600_000).toISOString(),
      count: 2,
    });
    // Past 48 hours a trigger leaves the window but not the all-time count.
    provider.clock.advance(49 * 3_600_000);
    const later = await expectJson<{
      total_triggers: number;
      rule_triggers: { all_time_count: number; total_count: number }[];
    }>(await api(provider, "/internal/sign-up-rules-stats", { headers: admin() }));
    expect(later.total_triggers).toBe(0);
    expect(later.rule_triggers[0]).toMatchObject({ total_count: 0, all_time_count: 2 });
  });

  it("writes a $sign-up-rule-trigger analytics event per matching rule, read back as the real suite reads it", async () => {
    await rules({ "auth.signUpRules.coalesce-rule": rule(1, "true", "log") });
    const email = freshEmail();
    await expectJson(await signUpRaw(email));
    const read = await expectJson<{ result: Record<string, unknown>[] }>(
      await api(provider, "/internal/analytics/query", {
        headers: admin(),
        json: {
          query:
            "SELECT COALESCE(NULLIF(CAST(data.rule_id, 'Nullable(String)'), ''), " +
            "NULLIF(CAST(data.ruleId, 'Nullable(String)'), '')) as rule_id, data.action AS action, " +
            "data.email AS email, data.auth_method AS auth_method, data.oauth_provider AS oauth_provider, " +
            "user_id, refresh_token_id FROM events WHERE event_type = '$sign-up-rule-trigger' LIMIT 1",
          params: {},
        },
      }),
    );
    expect(read.result).toEqual([
      {
        rule_id: "coalesce-rule",
        action: "log",
        email: email.toLowerCase(),
        auth_method: "password",
        oauth_provider: "",
        user_id: null,
        refresh_token_id: null,
      },
    ]);
  });

  it("answers what the real route's own queries over the events answer", async () => {
    await rules({
      "auth.signUpRules.a-log": rule(2, "true", "log"),
      "auth.signUpRules.b-restrict": rule(1, 'email.contains("r")', "restrict"),
    });
    await expectJson(await signUpRaw(freshEmail("r")));
    provider.clock.advance(3 * 3_600_000);
    await expectJson(await signUpRaw(freshEmail("r")));
    const run = async (query: string, params: Record<string, unknown>) =>
      (
        await expectJson<{ result: Record<string, unknown>[] }>(
          await api(provider, "/internal/analytics/query", { headers: admin(), json: { query, params } }),
        )
      ).result;
    const ruleId =
      "COALESCE(NULLIF(CAST(data.rule_id, 'Nullable(String)'), ''), NULLIF(CAST(data.ruleId, 'Nullable(String)'), ''))";
    const since = new Date(Math.floor(provider.clock.now() / 3_600_000) * 3_600_000 - 47 * 3_600_000);
    const recent = await run(
      `SELECT ${ruleId} as rule_id, data.action as action, toStartOfHour(event_at) as hour FROM events ` +
        "WHERE event_type = '$sign-up-rule-trigger' AND project_id = {projectId:String} AND branch_id = {branchId:String} " +
        "AND event_at >= {since:DateTime} ORDER BY event_at ASC",
      { projectId: DEV.id, branchId: "main", since: since.toISOString().slice(0, 19) },
    );
    const allTime = await run(
      `SELECT ${ruleId} as rule_id, count() as total_count FROM events ` +
        "WHERE event_type = '$sign-up-rule-trigger' AND project_id = {projectId:String} AND branch_id = {branchId:String} " +
        "GROUP BY rule_id",
      { projectId: DEV.id, branchId: "main" },
    );
    const stats = await expectJson<{
      total_triggers: number;
      triggers_by_action: Record<string, number>;
      rule_triggers: { rule_id: string; all_time_count: number; hourly_counts: { hour: string; count: number }[] }[];
    }>(await api(provider, "/internal/sign-up-rules-stats", { headers: admin() }));
    expect(recent).toHaveLength(4);
    expect(stats.total_triggers).toBe(recent.length);
    expect(stats.triggers_by_action).toMatchObject({ log: 2, restrict: 2 });
    for (const trigger of stats.rule_triggers) {
      expect(String(allTime.find((r) => r.rule_id === trigger.rule_id)?.total_count)).toBe(
        String(trigger.all_time_count),
      );
      const hours = recent
        .filter((r) => r.rule_id === trigger.rule_id)
        .map((r) => new Date(`${String(r.hour).replace(" ", "T")}Z`).toISOString());
      expect(trigger.hourly_counts.filter((h) => h.count > 0).flatMap((h) => Array(h.count).fill(h.hour))).toEqual(
        hours,
      );
    }
  });

  it("is for admins only", async () => {
    await expectKnownError(
      await api(provider, "/internal/sign-up-rules-stats", { headers: server() }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});
