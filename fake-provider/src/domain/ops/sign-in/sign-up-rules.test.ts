import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  START_MILLIS,
  admin,
  anonymousSignUp,
  api,
  client,
  expectJson,
  expectKnownError,
  freshEmail,
  newProvider,
  providerWithDevConfig,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";
import { evaluateSignUpRules, normalizeRule, signUpRuleContext, sortRules } from "./sign-up-rules.ts";

/** Sign-up rules (domain/ops/sign-in/sign-up-rules.ts): config keys, enforced at every sign-up, with a dry run and trigger counts. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const rules = async (override: Record<string, unknown>, p: TestProvider = provider) =>
  expectJson(
    await api(p, "/internal/config/override/environment", {
      method: "PATCH",
      headers: admin(),
      json: { config_override_string: JSON.stringify(override) },
    }),
  );
const rule = (priority: number, condition: string, type: string, extra: Record<string, unknown> = {}) => ({
  enabled: true,
  displayName: `rule ${priority}`,
  priority,
  condition,
  action: { type },
  ...extra,
});
const signUpRaw = (email: string, extra: Record<string, string> = {}, p: TestProvider = provider) =>
  api(p, "/auth/password/sign-up", { headers: client(), json: { email, password: "password-123" }, raw: extra });
const userOf = async (id: string) =>
  expectJson<Record<string, unknown>>(await api(provider, `/users/${id}`, { headers: server() }));

describe("evaluation", () => {
  const config = (list: [string, unknown][], defaultAction: "allow" | "reject" = "allow") => ({
    rules: sortRules(list.map(([id, r]) => [id, normalizeRule(r)])),
    defaultAction,
  });
  const ctx = signUpRuleContext({
    email: " Ada@Example.COM ",
    countryCode: "us",
    authMethod: "password",
    oauthProvider: null,
  });

  it("builds the context as upstream does: the address trimmed and lower-cased, its domain, the country upper-cased", () => {
    expect(ctx).toEqual({
      email: "ada@example.com",
      emailDomain: "example.com",
      countryCode: "US",
      authMethod: "password",
      oauthProvider: "",
      riskScores: { bot: 0, free_trial_abuse: 0 },
    });
  });

  it("orders by priority (higher first), then by id, and stops at the first allow or reject", () => {
    const result = evaluateSignUpRules(
      config([
        ["zzz", rule(0, "true", "allow")],
        ["aaa", rule(0, "true", "reject")],
        ["top", rule(5, "true", "log")],
      ]),
      ctx,
    );
    expect(result.evaluations.map((e) => [e.ruleId, e.status])).toEqual([
      ["top", "matched"],
      ["aaa", "matched"],
    ]);
    expect(result.outcome).toEqual({
      shouldAllow: false,
      decision: "reject",
      decisionRuleId: "aaa",
      restrictedBecauseOfRuleId: null,
    });
  });

  it("skips disabled rules and rules without a condition, and an erroring condition does not match", () => {
    const result = evaluateSignUpRules(
      config(
        [
          ["a", { ...rule(3, "true", "reject"), enabled: false }],
          ["b", { enabled: true, priority: 2, action: { type: "reject" } }],
          ["c", rule(1, 'email.matches("(")', "reject")],
          ["d", rule(0, "true", "restrict")],
          ["e", rule(0, "true", "restrict")],
        ],
        "reject",
      ),
      ctx,
    );
    expect(result.evaluations.map((e) => e.status)).toEqual([
      "disabled",
      "missing_condition",
      "error",
      "matched",
      "matched",
    ]);
    expect(result.outcome).toEqual({
      shouldAllow: false,
      decision: "default-reject",
      decisionRuleId: null,
      restrictedBecauseOfRuleId: "d",
    });
  });
});

describe("password sign-up", () => {
  it("is refused with SIGN_UP_REJECTED when a reject rule matches, without naming the rule", async () => {
    await rules({
      "auth.signUpRules.block": rule(0, 'email.contains("blocked")', "reject", {
        action: { type: "reject", message: "internal" },
      }),
    });
    const body = await expectKnownError(await signUpRaw(freshEmail("blocked")), "SIGN_UP_REJECTED", 403);
    expect(body).toEqual({
      code: "SIGN_UP_REJECTED",
      details: { message: "Your sign up was rejected by an administrator's sign-up rule." },
      error: "Your sign up was rejected by an administrator's sign-up rule.",
    });
    await expectJson(await signUpRaw(freshEmail("fine")));
  });

  it("runs a matches() pattern, its engine loaded with the first rule that uses one", async () => {
    await rules({
      "auth.signUpRules.block": rule(0, 'email.matches("^[^@]+@blocked\\\\.example$")', "reject"),
    });
    await expectKnownError(await signUpRaw("ann@blocked.example"), "SIGN_UP_REJECTED", 403);
    await expectJson(await signUpRaw("ann@blockedxexample.com"));
  });

  it("follows the default action when no rule decides", async () => {
    await rules({
      "auth.signUpRulesDefaultAction": "reject",
      "auth.signUpRules.vip": rule(0, 'emailDomain == "vip.com"', "allow"),
    });
    await expectKnownError(await signUpRaw("a@other.com"), "SIGN_UP_REJECTED", 403);
    await expectJson(await signUpRaw("a@vip.com"));
  });

  it("restricts the user a restrict rule matches, naming the first such rule in the private details", async () => {
    await rules({
      "auth.signUpRules.a-restrict": rule(10, "true", "restrict", { displayName: "Restrict all" }),
      "auth.signUpRules.b-restrict": rule(5, "true", "restrict"),
    });
    const { user_id } = await expectJson<{ user_id: string }>(await signUpRaw(freshEmail()));
    const user = await userOf(user_id);
    expect(user).toMatchObject({
      restricted_by_admin: true,
      restricted_by_admin_reason: null,
      restricted_by_admin_private_details: "Restricted by sign-up rule: a-restrict (Restrict all)",
      is_restricted: true,
    });
  });

  it("reads the country from the request's location headers and keeps it on the user", async () => {
    await rules({ "auth.signUpRules.block-de": rule(0, 'countryCode == "DE"', "reject") });
    await expectKnownError(
      await signUpRaw(freshEmail(), { "x-forwarded-for": "127.0.0.1", "x-vercel-ip-country": "DE" }),
      "SIGN_UP_REJECTED",
      403,
    );
    const { user_id } = await expectJson<{ user_id: string }>(
      await signUpRaw(freshEmail(), { "x-forwarded-for": "127.0.0.1", "x-vercel-ip-country": "ca" }),
    );
    expect((await userOf(user_id)).country_code).toBe("CA");
  });

  it("applies to an anonymous user's upgrade but not to creating an anonymous user", async () => {
    const anonymous = providerWithDevConfig({ anonymous_enabled: true });
    await rules({ "auth.signUpRulesDefaultAction": "reject" }, anonymous);
    const anon = await anonymousSignUp(anonymous);
    const upgrade = await api(anonymous, "/auth/password/sign-up", {
      headers: client({ accessToken: anon.access_token, allowAnonymousUser: "true" }),
      json: { email: freshEmail(), password: "password-123" },
    });
    await expectKnownError(upgrade, "SIGN_UP_REJECTED", 403);
    await expectJson(await api(anonymous, "/auth/anonymous/sign-up", { method: "POST", headers: client() }));
    expect(anonymous.unexpected).toEqual([]);
  });
});

describe("restriction by an administrator", () => {
  const patchUser = (id: string, json: Record<string, unknown>) =>
    api(provider, `/users/${id}`, { method: "PATCH", headers: server(), json });

  it("takes a reason or details only with restricted_by_admin: true, and lifting it clears both", async () => {
    const { user_id } = await expectJson<{ user_id: string }>(await signUpRaw(freshEmail()));
    const refused = await expectKnownError(
      await patchUser(user_id, { restricted_by_admin: false, restricted_by_admin_reason: "x" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(refused.error).toContain("restricted_by_admin_reason must be null when restricted_by_admin is not true");
    await expectKnownError(await patchUser(user_id, { restricted_by_admin_private_details: "x" }), "SCHEMA_ERROR", 400);
    await expectJson(
      await patchUser(user_id, {
        restricted_by_admin: true,
        restricted_by_admin_reason: "review",
        restricted_by_admin_private_details: "fraud",
      }),
    );
    expect(await userOf(user_id)).toMatchObject({
      is_restricted: true,
      restricted_reason: { type: "restricted_by_administrator" },
    });
    await expectJson(await patchUser(user_id, { restricted_by_admin: false }));
    expect(await userOf(user_id)).toMatchObject({
      restricted_by_admin: false,
      restricted_by_admin_reason: null,
      restricted_by_admin_private_details: null,
      is_restricted: false,
      restricted_reason: null,
    });
  });

  it("names an unverified address first when the project requires verification (onboarding.requireEmailVerification)", async () => {
    await rules({
      onboarding: { requireEmailVerification: true },
      "auth.signUpRules.all": rule(0, "true", "restrict"),
    });
    const { user_id } = await expectJson<{ user_id: string }>(await signUpRaw(freshEmail()));
    expect(await userOf(user_id)).toMatchObject({
      restricted_by_admin: true,
      is_restricted: true,
      restricted_reason: { type: "email_not_verified" },
    });
    await expectJson(await patchUser(user_id, { primary_email_verified: true }));
    expect(await userOf(user_id)).toMatchObject({ restricted_reason: { type: "restricted_by_administrator" } });
    await rules({ "onboarding.requireEmailVerification": null, "auth.signUpRules": null });
    const plain = await expectJson<{ user_id: string }>(await signUpRaw(freshEmail()));
    expect(await userOf(plain.user_id)).toMatchObject({ is_restricted: false, restricted_reason: null });
  });
});

describe("OTP sign-up", () => {
  it("is refused when the rules reject the new address", async () => {
    const otp = providerWithDevConfig({ magic_link_enabled: true });
    await rules({ "auth.signUpRules.no-otp": rule(0, 'authMethod == "otp"', "reject") }, otp);
    const email = freshEmail();
    const sent = await expectJson<{ nonce: string }>(
      await api(otp, "/auth/otp/send-sign-in-code", {
        headers: client(),
        json: { email, callback_url: "http://localhost:3000/handler/magic-link-callback" },
      }),
    );
    const code = otp.outbox.latest({ to: email, kind: "magic_link" })!.code!;
    expect(sent.nonce).toBeTruthy();
    await expectKnownError(
      await api(otp, "/auth/otp/sign-in", { headers: client(), json: { code } }),
      "SIGN_UP_REJECTED",
      403,
    );
    expect(otp.unexpected).toEqual([]);
  });
});

describe("POST /internal/sign-up-rules-test", () => {
  const dryRun = (body: Record<string, unknown>) =>
    api(provider, "/internal/sign-up-rules-test", {
      headers: admin(),
      json: { oauth_provider: null, country_code: null, ...body },
    });

  it("answers the context, every evaluation and the outcome", async () => {
    await rules({
      "auth.signUpRules.log-first": rule(2, 'emailDomain == "example.com"', "log"),
      "auth.signUpRules.block-oauth": rule(1, 'authMethod == "oauth"', "reject", {
        action: { type: "reject", message: "OAuth blocked" },
      }),
    });
    const answer = await expectJson(
      await dryRun({ email: "Test@Example.com", auth_method: "oauth", oauth_provider: "google", country_code: " us " }),
    );
    expect(answer).toEqual({
      context: {
        email: "test@example.com",
        email_domain: "example.com",
        country_code: "US",
        auth_method: "oauth",
        oauth_provider: "google",
        turnstile_result: "invalid",
        risk_scores: { bot: 0, free_trial_abuse: 0 },
      },
      evaluations: [
        {
          rule_id: "log-first",
          display_name: "rule 2",
          enabled: true,
          condition: 'emailDomain == "example.com"',
          status: "matched",
          action: { type: "log" },
        },
        {
          rule_id: "block-oauth",
          display_name: "rule 1",
          enabled: true,
          condition: 'authMethod == "oauth"',
          status: "matched",
          action: { type: "reject", message: "OAuth blocked" },
        },
      ],
      outcome: {
        should_allow: false,
        decision: "reject",
        decision_rule_id: "block-oauth",
        restricted_because_of_rule_id: null,
      },
    });
  });

  it("takes risk scores and a turnstile result, and refuses a country code that is not two letters", async () => {
    await rules({ "auth.signUpRules.bots": rule(1, "riskScores.bot >= 50", "reject") });
    const answer = await expectJson<{ outcome: { decision: string } }>(
      await dryRun({
        email: null,
        auth_method: "password",
        turnstile_result: "ok",
        risk_scores: { bot: 90, free_trial_abuse: 0 },
      }),
    );
    expect(answer.outcome.decision).toBe("reject");
    const bad = await expectKnownError(
      await dryRun({ email: null, auth_method: "password", country_code: "usa" }),
      "SCHEMA_ERROR",
      400,
    );
    expect(bad.error).toContain("body.country_code must be a 2-letter country code");
  });
});

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
