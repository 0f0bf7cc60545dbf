import type {
  BillingJson,
  PaymentMethodSummaryJson,
  SetDefaultPaymentMethodJson,
  SetupIntentJson,
} from "@authsim/sdk/contract";
import type { SetupIntentCard, SetupIntentView } from "@authsim/sdk/emulator";
import { randomBase32 } from "@authsim/sdk/runtime";
import type { Auth } from "../../auth/caller.ts";
import { customerKey, providerKey, type CardRecord, type SetupIntentRecord } from "../../store/payment-records.ts";
import {
  cardBrand,
  cardDigits,
  DEFAULT_TEST_CARD_NUMBER,
  hasExpired,
  isDeclinedTestCard,
  passesLuhn,
} from "./cards.ts";
import type { OpContext } from "../context.ts";
import { assertClientMayManage, assertCustomerExists, type Customer } from "./customers.ts";
import { accountOf } from "./payment-accounts.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * A customer's payment method (upstream's /payments/billing and /payments/payment-method routes, sdk-surface.md §15).
 * The emulator is the payment provider: a setup intent is a record that waits for a card until the customer's browser
 * confirms it (the emulator's stand-in for the provider's browser script: POST /__emulator/payments/setup-intents/
 * confirm, emulator/control/payments.ts); set-default then makes the confirmed intent's card the customer's default,
 * which billing reports from then on.
 */

type BillingCustomerParams = { customer_type: "user" | "team"; customer_id: string };

/**
 * The card a customer who saved none of their own has on file once the project's payments are set up: the test card the
 * real service's Stripe mock answers with for every customer (visa 4242, 08/2025), as upstream's own tests see it.
 */
export const TEST_CARD = {
  id: "pm_1Pgc75B7WZ01zgkWlHVgdEGJ",
  brand: "visa",
  last4: "4242",
  exp_month: 8,
  exp_year: 2025,
} as const;

const cardView = (card: CardRecord): PaymentMethodSummaryJson => ({
  id: card.paymentMethodId,
  brand: card.brand,
  last4: card.last4,
  exp_month: card.expMonth,
  exp_year: card.expYear,
});

/** The customer's default card: the one set-default saved, else the provider's test card. */
function defaultCardOf(ctx: OpContext, projectId: string, customer: BillingCustomerParams): PaymentMethodSummaryJson {
  const saved = ctx.tables.defaultPaymentMethods.get(
    customerKey(projectId, customer.customer_type, customer.customer_id),
  );
  return saved ? cardView(saved.card) : { ...TEST_CARD };
}

/**
 * GET /payments/billing/{type}/{id}: no provider customer before the project's payments are set up; after, the customer
 * must exist (USER_NOT_FOUND / TEAM_NOT_FOUND), as upstream looks its provider customer up only then.
 */
export function billingOf(ctx: OpContext, auth: Auth, params: BillingCustomerParams): BillingJson {
  assertClientMayManage(ctx, auth, { type: params.customer_type, id: params.customer_id }, () =>
    refusal("clientOwnBillingOnly"),
  );
  if (!accountOf(ctx, auth.project.id)) return { has_customer: false, default_payment_method: null };
  assertCustomerExists(ctx, auth.project.id, { type: params.customer_type, id: params.customer_id });
  return { has_customer: true, default_payment_method: defaultCardOf(ctx, auth.project.id, params) };
}

/** POST /payments/payment-method/{type}/{id}/setup-intent: a new intent of the customer, waiting for a card. */
export function createSetupIntent(ctx: OpContext, auth: Auth, params: BillingCustomerParams): SetupIntentJson {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertClientMayManage(ctx, auth, customer, () => refusal("clientOwnPaymentMethodOnly"));
  const account = accountOf(ctx, auth.project.id);
  if (!account) throw refusal("paymentsNotSetUp");
  assertCustomerExists(ctx, auth.project.id, customer);
  const intentId = `seti_${randomBase32(ctx.random, 120)}`;
  const clientSecret = `${intentId}_secret_${randomBase32(ctx.random, 120)}`;
  ctx.tables.setupIntents.set(providerKey(auth.project.id, intentId), {
    projectId: auth.project.id,
    intentId,
    clientSecret,
    customerType: params.customer_type,
    customerId: params.customer_id,
    status: "requires_payment_method",
    card: null,
    createdAtMillis: ctx.now,
    confirmedAtMillis: null,
  });
  return { client_secret: clientSecret, stripe_account_id: account.accountId };
}

/**
 * POST /payments/payment-method/{type}/{id}/set-default {setup_intent_id}, with upstream's checks in its order: who may
 * act (a client for itself or a team it is team_admin of), the project's account, the intent, the customer, the
 * intent's customer, the intent's status. An intent the provider does not know is the provider's own refusal there,
 * which upstream lets through as its internal error (500); the emulator answers the provider's status (404) instead.
 */
export function setDefaultPaymentMethod(
  ctx: OpContext,
  auth: Auth,
  params: BillingCustomerParams,
  body: { setup_intent_id: string },
): SetDefaultPaymentMethodJson {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertClientMayManage(ctx, auth, customer, () => refusal("clientOwnPaymentMethodOnly"));
  if (!accountOf(ctx, auth.project.id)) throw refusal("paymentsNotSetUp");
  const intent = ctx.tables.setupIntents.get(providerKey(auth.project.id, body.setup_intent_id));
  if (!intent) throw refusal("noSuchSetupintent", body.setup_intent_id);
  assertCustomerExists(ctx, auth.project.id, customer);
  if (intent.customerType !== customer.type || intent.customerId !== customer.id)
    throw refusal("setupIntentDoesBelongCustomer");
  if (intent.status !== "succeeded" || !intent.card) throw refusal("setupIntentSucceeded");
  ctx.tables.defaultPaymentMethods.set(customerKey(auth.project.id, params.customer_type, params.customer_id), {
    projectId: auth.project.id,
    customerType: params.customer_type,
    customerId: params.customer_id,
    card: intent.card,
    setupIntentId: intent.intentId,
    setAtMillis: ctx.now,
  });
  return { success: true, default_payment_method: cardView(intent.card) };
}

/** A setup intent as the emulator's confirmation answers it (control-schemas.ts setupIntentView). */
const setupIntentView = (intent: SetupIntentRecord): SetupIntentView => ({
  id: intent.intentId,
  status: intent.status,
  customer_type: intent.customerType,
  customer_id: intent.customerId,
  payment_method: intent.card ? cardView(intent.card) : null,
});

/**
 * What the provider's browser script does with the intent's client secret and the card the customer typed: checks the
 * card (a number, not expired by the emulator's clock, not one of the test numbers the provider declines), saves it as
 * a payment method and marks the intent succeeded. A refused card leaves the intent waiting, as the provider does.
 */
export function confirmSetupIntent(ctx: OpContext, clientSecret: string, input: SetupIntentCard = {}): SetupIntentView {
  const intent = ctx.tables.setupIntents.lookup("clientSecret", clientSecret);
  if (!intent) throw refusal("noSetupIntentClientSecret");
  if (intent.status === "succeeded") throw refusal("setupIntentAlreadySucceededCreate");
  const digits = cardDigits(input.number ?? DEFAULT_TEST_CARD_NUMBER);
  if (digits === null || !passesLuhn(digits)) throw refusal("cardNumberInvalid");
  const expMonth = input.exp_month ?? 12;
  const expYear = input.exp_year ?? new Date(ctx.now).getUTCFullYear() + 5;
  if (hasExpired(expMonth, expYear, ctx.now)) throw refusal("cardExpired");
  if (isDeclinedTestCard(digits)) throw refusal("cardWasDeclined");
  const card: CardRecord = {
    paymentMethodId: `pm_${randomBase32(ctx.random, 120)}`,
    brand: cardBrand(digits),
    last4: digits.slice(-4),
    expMonth,
    expYear,
  };
  const confirmed: SetupIntentRecord = { ...intent, status: "succeeded", card, confirmedAtMillis: ctx.now };
  ctx.tables.setupIntents.set(providerKey(intent.projectId, intent.intentId), confirmed);
  return setupIntentView(confirmed);
}
