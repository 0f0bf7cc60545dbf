import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
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
import { passwordSignUp, rule, setRules } from "../../../test-support/sign-up-rules.ts";

// Sign-up rules (sign-up-rules.ts) through the API: config keys enforced at every sign-up, the dry run, the trigger
// counts (sign-up-rules-counts.test.ts). How a rule list decides, without a provider: sign-up-rules-evaluation.test.ts.

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const rules = (override: Record<string, unknown>, p: TestProvider = provider) => setRules(p, override);
const signUpRaw = (email: string, extra: Record<string, string> = {}, p: TestProvider = provider) =>
  passwordSignUp(p, email, extra);
const userOf = async (id: string) =>
  expectJson<Record<string, unknown>>(await api(provider, `/users/${id}`, { headers: server() }));

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
