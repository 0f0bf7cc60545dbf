import { describe, expect, it } from "vitest";
import { rule } from "../../../test-support/sign-up-rules.ts";
import { evaluateSignUpRules, normalizeRule, signUpRuleContext, sortRules } from "./sign-up-rules.ts";

/** How the sign-up rules decide (domain/ops/sign-in/sign-up-rules.ts), without a provider: context, order, outcome. */

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
