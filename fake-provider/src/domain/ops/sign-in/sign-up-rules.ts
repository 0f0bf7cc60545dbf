import { knownError } from "../../errors/known-error.ts";
import { recordSignUpRuleTriggers } from "../analytics/sign-up-rule-events.ts";
import type { UserRecord } from "../../store/records.ts";
import { isUnder, renderLayers } from "../config/config-layers.ts";
import { CelError, evaluateCelCondition } from "./cel.ts";
import { loadPatternEngine } from "./cel-regex.ts";
import type { OpContext } from "../context.ts";

/**
 * Sign-up rules (the config's `auth.signUpRules` and `auth.signUpRulesDefaultAction`): conditions in CEL (domain/ops/sign-in/cel.ts)
 * over who is signing up, evaluated at every sign-up (password, OTP, OAuth, passkey, and an anonymous user's upgrade by
 * any of them; not when an anonymous user is created). Rules run by priority (higher first), then by id; disabled rules
 * and rules without a condition are skipped, and a condition that fails to evaluate does not match. A matching `log`
 * rule is only logged (a `$sign-up-rule-trigger` analytics event, as for every matching rule), `restrict` marks the new user restricted by an administrator (the first such rule is named in
 * the private details) and evaluation goes on; `allow` or `reject` decides. With no decision the default action does.
 * A rejection is SIGN_UP_REJECTED, whose message never names the rule.
 */

export type SignUpAuthMethod = "password" | "otp" | "oauth" | "passkey";
export type SignUpRuleActionType = "allow" | "reject" | "restrict" | "log";

export interface SignUpRule {
  enabled: boolean;
  displayName?: string;
  priority: number;
  condition?: string;
  action: { type: SignUpRuleActionType; message?: string };
}

export interface SignUpRulesConfig {
  /** Sorted as they are evaluated. */
  rules: [string, SignUpRule][];
  defaultAction: "allow" | "reject";
}

/** What a condition can read. */
export interface SignUpRuleContext {
  email: string;
  emailDomain: string;
  /** Upper-case ISO 3166-1 alpha-2, or "" when unknown. */
  countryCode: string;
  authMethod: SignUpAuthMethod;
  oauthProvider: string;
  riskScores: { bot: number; free_trial_abuse: number };
}

export type SignUpRuleStatus = "matched" | "not_matched" | "disabled" | "missing_condition" | "error";

export interface SignUpRuleEvaluation {
  ruleId: string;
  rule: SignUpRule;
  status: SignUpRuleStatus;
  error?: string;
}

export interface SignUpRulesOutcome {
  shouldAllow: boolean;
  decision: "allow" | "reject" | "default-allow" | "default-reject";
  decisionRuleId: string | null;
  restrictedBecauseOfRuleId: string | null;
}

const actionTypes: readonly string[] = ["allow", "reject", "restrict", "log"];
const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A rule as the config renders it: every field takes its default (disabled, priority 0, action allow). */
export function normalizeRule(raw: unknown): SignUpRule {
  const r = isPlainObject(raw) ? raw : {};
  const action = isPlainObject(r.action) ? r.action : {};
  return {
    enabled: r.enabled === true,
    ...(typeof r.displayName === "string" ? { displayName: r.displayName } : {}),
    priority: typeof r.priority === "number" && Number.isFinite(r.priority) ? r.priority : 0,
    ...(typeof r.condition === "string" ? { condition: r.condition } : {}),
    action: {
      type:
        typeof action.type === "string" && actionTypes.includes(action.type)
          ? (action.type as SignUpRuleActionType)
          : "allow",
      ...(typeof action.message === "string" ? { message: action.message } : {}),
    },
  };
}

/** Higher priority first, then ids in code-unit order. */
export function sortRules(rules: [string, SignUpRule][]): [string, SignUpRule][] {
  return [...rules].sort(([idA, a], [idB, b]) =>
    a.priority !== b.priority ? b.priority - a.priority : idA < idB ? -1 : idA > idB ? 1 : 0,
  );
}

/** The rules of a project, from its config layers, in evaluation order. */
export function signUpRulesOf(ctx: Pick<OpContext, "tables">, projectId: string): SignUpRulesConfig {
  const base: Record<string, unknown> = { auth: { signUpRules: {}, signUpRulesDefaultAction: "allow" } };
  const rendered = renderLayers(
    ctx,
    projectId,
    base,
    (key) => isUnder(key, "auth.signUpRules") || isUnder(key, "auth.signUpRulesDefaultAction"),
  );
  const auth = isPlainObject(rendered.auth) ? rendered.auth : {};
  const rules = isPlainObject(auth.signUpRules)
    ? Object.entries(auth.signUpRules).map(([id, rule]): [string, SignUpRule] => [id, normalizeRule(rule)])
    : [];
  return { rules: sortRules(rules), defaultAction: auth.signUpRulesDefaultAction === "reject" ? "reject" : "allow" };
}

/** The rules' conditions may call matches(): its engine loads first (cel-regex.ts loads it on demand). */
async function rulesReady(config: SignUpRulesConfig): Promise<SignUpRulesConfig> {
  if (config.rules.some(([, rule]) => rule.condition?.includes("matches"))) await loadPatternEngine();
  return config;
}

/** The context of a sign-up: the address lower-cased and trimmed, its domain, the country code upper-cased. */
export function signUpRuleContext(input: {
  email: string | null;
  countryCode: string | null;
  authMethod: SignUpAuthMethod;
  oauthProvider: string | null;
  riskScores?: { bot: number; free_trial_abuse: number };
}): SignUpRuleContext {
  const email = input.email ? input.email.trim().toLowerCase() : "";
  const at = email.lastIndexOf("@");
  return {
    email,
    emailDomain: at >= 0 ? email.slice(at + 1) : "",
    countryCode: normalizeCountryCode(input.countryCode) ?? "",
    authMethod: input.authMethod,
    oauthProvider: input.oauthProvider ?? "",
    riskScores: { bot: input.riskScores?.bot ?? 0, free_trial_abuse: input.riskScores?.free_trial_abuse ?? 0 },
  };
}

/** A two-letter country code, upper-cased; anything else is no country. */
export function normalizeCountryCode(code: string | null | undefined): string | null {
  if (code === null || code === undefined) return null;
  const normalized = code.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(normalized) ? normalized : null;
}

/** Evaluates the rules in order, recording each one's status, up to the first allow or reject that matches. */
export function evaluateSignUpRules(
  config: SignUpRulesConfig,
  context: SignUpRuleContext,
): { evaluations: SignUpRuleEvaluation[]; triggered: [string, SignUpRuleActionType][]; outcome: SignUpRulesOutcome } {
  const evaluations: SignUpRuleEvaluation[] = [];
  const triggered: [string, SignUpRuleActionType][] = [];
  let restrictedBecauseOfRuleId: string | null = null;
  for (const [ruleId, rule] of config.rules) {
    if (!rule.enabled) {
      evaluations.push({ ruleId, rule, status: "disabled" });
      continue;
    }
    if (!rule.condition) {
      evaluations.push({ ruleId, rule, status: "missing_condition" });
      continue;
    }
    let matched = false;
    try {
      matched = evaluateCelCondition(rule.condition, { ...context });
      evaluations.push({ ruleId, rule, status: matched ? "matched" : "not_matched" });
    } catch (e) {
      if (!(e instanceof CelError)) throw e;
      evaluations.push({ ruleId, rule, status: "error", error: e.message });
    }
    if (!matched) continue;
    const type = rule.action.type;
    triggered.push([ruleId, type]);
    if (type === "restrict") restrictedBecauseOfRuleId ??= ruleId;
    if (type === "allow" || type === "reject") {
      return {
        evaluations,
        triggered,
        outcome: { shouldAllow: type === "allow", decision: type, decisionRuleId: ruleId, restrictedBecauseOfRuleId },
      };
    }
  }
  const shouldAllow = config.defaultAction !== "reject";
  return {
    evaluations,
    triggered,
    outcome: {
      shouldAllow,
      decision: shouldAllow ? "default-allow" : "default-reject",
      decisionRuleId: null,
      restrictedBecauseOfRuleId,
    },
  };
}

/** The one message a rejection has (a rule's own message is for the admin only). */
export const signUpRejectedMessage = "Your sign up was rejected by an administrator's sign-up rule.";

export interface SignUpInput {
  /** The address the new account will have (for an upgrade, the anonymous user's when the sign-up names none). */
  email: string | null;
  authMethod: SignUpAuthMethod;
  oauthProvider?: string | null;
  /** The anonymous user being upgraded, if any. */
  current?: UserRecord | null;
  /**
   * The country of the request that started the sign-up, when that was not this request (an OTP sign-up takes the
   * send-sign-in-code request's, as upstream does); absent, this request's.
   */
  countryCode?: string | null;
}

/**
 * Applies the project's rules to a sign-up about to happen: throws SIGN_UP_REJECTED, or returns the fields the new (or
 * upgraded) user record takes: the restriction a `restrict` rule set and the country the request came from.
 */
export async function applySignUpRules(
  ctx: OpContext,
  projectId: string,
  input: SignUpInput,
): Promise<Partial<UserRecord>> {
  const countryCode = normalizeCountryCode(
    input.countryCode !== undefined ? input.countryCode : ctx.endUser?.countryCode,
  );
  const context = signUpRuleContext({
    email: input.email ?? input.current?.primaryEmail ?? null,
    countryCode,
    authMethod: input.authMethod,
    oauthProvider: input.oauthProvider ?? null,
  });
  const config = await rulesReady(signUpRulesOf(ctx, projectId));
  const { triggered, outcome } = evaluateSignUpRules(config, context);
  recordSignUpRuleTriggers(
    ctx,
    projectId,
    triggered.map(([ruleId, action]) => ({
      ruleId,
      action,
      email: context.email,
      authMethod: context.authMethod,
      oauthProvider: context.oauthProvider,
    })),
  );
  if (!outcome.shouldAllow) throw knownError("SIGN_UP_REJECTED", { message: signUpRejectedMessage });
  const fields: Partial<UserRecord> = {};
  const ruleId = outcome.restrictedBecauseOfRuleId;
  if (ruleId !== null) {
    const displayName = config.rules.find(([id]) => id === ruleId)?.[1].displayName ?? "";
    const details = `Restricted by sign-up rule: ${ruleId}${displayName ? ` (${displayName})` : ""}`;
    const existing = input.current?.restrictedByAdminPrivateDetails ?? null;
    fields.restrictedByAdmin = true;
    fields.restrictedByAdminPrivateDetails = existing !== null ? `${existing}\n\n${details}` : details;
  }
  const keptCountry =
    input.current?.isAnonymous && input.current.countryCode !== null ? input.current.countryCode : countryCode;
  if (keptCountry !== null) fields.countryCode = keptCountry;
  return fields;
}

/** POST /internal/sign-up-rules-test: what the rules decide for a sign-up described by the admin, with every step. */
export async function testSignUpRules(
  ctx: OpContext,
  projectId: string,
  body: {
    email: string | null;
    auth_method: SignUpAuthMethod;
    oauth_provider: string | null;
    country_code: string | null;
    turnstile_result?: "ok" | "invalid" | "error" | undefined;
    risk_scores?: { bot: number; free_trial_abuse: number } | undefined;
  },
) {
  const countryCode = body.country_code ?? normalizeCountryCode(ctx.endUser?.countryCode);
  const context = signUpRuleContext({
    email: body.email,
    countryCode,
    authMethod: body.auth_method,
    oauthProvider: body.oauth_provider,
    ...(body.risk_scores ? { riskScores: body.risk_scores } : {}),
  });
  const { evaluations, outcome } = evaluateSignUpRules(await rulesReady(signUpRulesOf(ctx, projectId)), context);
  return {
    context: {
      email: context.email,
      email_domain: context.emailDomain,
      country_code: context.countryCode,
      auth_method: context.authMethod,
      oauth_provider: context.oauthProvider,
      turnstile_result: body.turnstile_result ?? "invalid",
      risk_scores: { bot: context.riskScores.bot, free_trial_abuse: context.riskScores.free_trial_abuse },
    },
    evaluations: evaluations.map((e) => ({
      rule_id: e.ruleId,
      display_name: e.rule.displayName ?? "",
      enabled: e.rule.enabled,
      condition: e.rule.condition ?? "",
      status: e.status,
      action: {
        type: e.rule.action.type,
        ...(e.rule.action.message !== undefined ? { message: e.rule.action.message } : {}),
      },
      ...(e.error !== undefined ? { error: e.error } : {}),
    })),
    outcome: {
      should_allow: outcome.shouldAllow,
      decision: outcome.decision,
      decision_rule_id: outcome.decisionRuleId,
      restricted_because_of_rule_id: outcome.restrictedBecauseOfRuleId,
    },
  };
}
