import {
  paymentMethodNames,
  type PaymentMethodConfigsJson,
  type StripeAccountInfoJson,
  type UpdatePaymentMethodConfigsBody,
} from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { PaymentAccountRecord } from "../../store/payment-records.ts";
import type { OpContext } from "../context.ts";
import { dashboardOrigin } from "../integrations/integration-clients.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The project's payment-provider account, as upstream's /internal/payments/* routes see it. Setup makes the account
 * (once) and returns an onboarding link; here the link opens the emulator's onboarding page (emulator/control/payments.ts),
 * whose completion enables charges, details and payouts. Until setup, there is no account: STRIPE_ACCOUNT_INFO_NOT_FOUND.
 */

export const onboardingPath = (accountId: string) => `/__emulator/payments/onboarding/${encodeURIComponent(accountId)}`;

export function accountOf(ctx: OpContext, projectId: string): PaymentAccountRecord | undefined {
  return ctx.tables.paymentAccounts.get(projectId);
}

/**
 * A seeded project's account, set up and onboarded (ProviderSeed.paymentsSetUp). Its id is fixed from the project's,
 * like the seeded keys, so a seed draws nothing from the random source.
 */
export function seedOnboardedAccount(ctx: OpContext, projectId: string): void {
  const accountId = `acct_authsim_${projectId.replace(/[^0-9a-z]/gi, "").slice(0, 16)}`;
  ctx.tables.paymentAccounts.set(projectId, {
    projectId,
    accountId,
    createdAtMillis: ctx.now,
    onboardedAtMillis: ctx.now,
  });
}

/**
 * POST /internal/payments/setup: the account is made on the first call and reused after (upstream). Each call links
 * back as upstream's account link does: to the new-project wizard while the project is at its payments step, else to
 * the dashboard's payments page.
 */
export function setupPayments(ctx: OpContext, projectId: string): string {
  const dashboard = dashboardOrigin(ctx);
  const returnUrl =
    ctx.tables.projects.get(projectId)?.onboardingStatus === "payments_setup"
      ? `${dashboard}/new-project?project_id=${encodeURIComponent(projectId)}`
      : `${dashboard}/projects/${encodeURIComponent(projectId)}/payments`;
  const account: PaymentAccountRecord = {
    ...(accountOf(ctx, projectId) ?? {
      projectId,
      accountId: `acct_${randomBase32(ctx.random, 80)}`,
      createdAtMillis: ctx.now,
      onboardedAtMillis: null,
    }),
    returnUrl,
  };
  ctx.tables.paymentAccounts.set(projectId, account);
  return `${ctx.settings.apiBaseUrl}${onboardingPath(account.accountId)}`;
}

export function stripeAccountInfo(ctx: OpContext, projectId: string): StripeAccountInfoJson {
  const account = accountOf(ctx, projectId);
  if (!account) throw knownError("STRIPE_ACCOUNT_INFO_NOT_FOUND");
  const onboarded = account.onboardedAtMillis !== null;
  return {
    account_id: account.accountId,
    charges_enabled: onboarded,
    details_submitted: onboarded,
    payouts_enabled: onboarded,
  };
}

/** POST /internal/payments/stripe-widgets/account-session: upstream answers a plain 400 without an account. */
export function stripeWidgetSession(ctx: OpContext, projectId: string): string {
  const account = accountOf(ctx, projectId);
  if (!account) throw refusal("stripeAccountIdSet");
  return `${account.accountId}_secret_${randomBase32(ctx.random, 120)}`;
}

/** The onboarding page's "Complete onboarding": idempotent. Unknown accounts are null (the page answers 404). */
export function completeOnboarding(ctx: OpContext, accountId: string): PaymentAccountRecord | null {
  const account = ctx.tables.paymentAccounts.lookup("accountId", accountId);
  if (!account) return null;
  if (account.onboardedAtMillis !== null) return account;
  const onboarded = { ...account, onboardedAtMillis: ctx.now };
  ctx.tables.paymentAccounts.set(account.projectId, onboarded);
  return onboarded;
}

export function findAccount(ctx: Pick<OpContext, "tables">, accountId: string): PaymentAccountRecord | undefined {
  return ctx.tables.paymentAccounts.lookup("accountId", accountId);
}

/** Methods on by default, as a new provider account offers them (cards, Link and the wallets that ride on cards). */
const defaultOn: ReadonlySet<string> = new Set(["card", "link", "apple_pay", "google_pay"]);

const configIdOf = (account: PaymentAccountRecord) =>
  `pmc_${account.accountId.slice("acct_".length, "acct_".length + 24)}`;

/**
 * GET /internal/payments/method-configs: what checkout offers. Every known method is available and overridable on the
 * emulated provider; sorted by name, as upstream lists them. No account: STRIPE_ACCOUNT_INFO_NOT_FOUND.
 */
export function paymentMethodConfigs(ctx: OpContext, projectId: string): PaymentMethodConfigsJson {
  const account = accountOf(ctx, projectId);
  if (!account) throw knownError("STRIPE_ACCOUNT_INFO_NOT_FOUND");
  const preferences = account.methodPreferences ?? {};
  const methods = Object.entries(paymentMethodNames)
    .map(([id, name]) => ({
      id,
      name,
      enabled: (Object.hasOwn(preferences, id) ? preferences[id] : defaultOn.has(id) ? "on" : "off") === "on",
      available: true,
      overridable: true,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { config_id: configIdOf(account), methods };
}

/** PATCH /internal/payments/method-configs: an empty update is a no-op even without an account (upstream). */
export function updatePaymentMethodConfigs(
  ctx: OpContext,
  projectId: string,
  body: UpdatePaymentMethodConfigsBody,
): void {
  if (Object.keys(body.updates).length === 0) return;
  const account = accountOf(ctx, projectId);
  if (!account) throw knownError("STRIPE_ACCOUNT_INFO_NOT_FOUND");
  if (body.config_id !== configIdOf(account)) throw refusal("noPaymentMethodConfigurationAccount", body.config_id);
  ctx.tables.paymentAccounts.set(projectId, {
    ...account,
    methodPreferences: { ...account.methodPreferences, ...body.updates },
  });
}
