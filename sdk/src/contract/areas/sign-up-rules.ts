import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";

/**
 * Sign-up rules (the config's `auth.signUpRules`): the admin's dry run (POST /internal/sign-up-rules-test) and the
 * trigger counts (GET /internal/sign-up-rules-stats). The rules themselves are config keys (PATCH
 * /internal/config/override/{level}).
 */

export const signUpAuthMethod = z.enum(["password", "otp", "oauth", "passkey"]);
const riskScore = z.number().int().min(0).max(100);
const ruleActionType = z.enum(["allow", "reject", "restrict", "log"]);

/** A two-letter country code in any case, with spaces around it allowed (it is trimmed and upper-cased). */
const countryCode = z
  .string()
  .transform((v) => v.trim().toUpperCase())
  .refine((v) => /^[A-Z]{2}$/.test(v), { message: "must be a 2-letter country code" });

export const signUpRulesTestBody = z.strictObject({
  email: z.string().nullable(),
  auth_method: signUpAuthMethod,
  oauth_provider: z.string().nullable(),
  country_code: countryCode.nullable(),
  turnstile_result: z.enum(["ok", "invalid", "error"]).optional(),
  risk_scores: z.strictObject({ bot: riskScore, free_trial_abuse: riskScore }).optional(),
});

export const signUpRulesTestResponse = z.object({
  context: z.object({
    email: z.string(),
    email_domain: z.string(),
    country_code: z.string(),
    auth_method: signUpAuthMethod,
    oauth_provider: z.string(),
    turnstile_result: z.enum(["ok", "invalid", "error"]),
    risk_scores: z.object({ bot: z.number(), free_trial_abuse: z.number() }),
  }),
  evaluations: z.array(
    z.object({
      rule_id: z.string(),
      display_name: z.string(),
      enabled: z.boolean(),
      condition: z.string(),
      status: z.enum(["matched", "not_matched", "disabled", "missing_condition", "error"]),
      action: z.object({ type: ruleActionType, message: z.string().optional() }),
      error: z.string().optional(),
    }),
  ),
  outcome: z.object({
    should_allow: z.boolean(),
    decision: z.enum(["allow", "reject", "default-allow", "default-reject"]),
    decision_rule_id: z.string().nullable(),
    restricted_because_of_rule_id: z.string().nullable(),
  }),
});

export const signUpRulesStatsResponse = z.object({
  rule_triggers: z.array(
    z.object({
      rule_id: z.string(),
      total_count: z.number().int(),
      all_time_count: z.number().int(),
      hourly_counts: z.array(z.object({ hour: z.string(), count: z.number().int() })),
    }),
  ),
  analytics_hours: z.number().int(),
  total_triggers: z.number().int(),
  triggers_by_action: z.object({
    allow: z.number().int(),
    reject: z.number().int(),
    restrict: z.number().int(),
    log: z.number().int(),
  }),
});

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const signUpRulesOperations = defineOperations("sign-up-rules", {
  testSignUpRules: {
    method: "POST",
    path: "/internal/sign-up-rules-test",
    access: "admin",
    body: signUpRulesTestBody,
    errors: [],
    responses: [json(signUpRulesTestResponse)],
  },
  signUpRulesStats: {
    method: "GET",
    path: "/internal/sign-up-rules-stats",
    access: "admin",
    errors: [],
    responses: [json(signUpRulesStatsResponse)],
  },
});
