import type { OfferConfig } from "@authsim/sdk/contract";
import { DEFAULT_TEMPLATE_IDS } from "../../email/default-sources.ts";
import { invoiceKey, providerKey, type SubscriptionInvoiceRecord } from "../../store/payment-records.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import { nextSequence } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { assertCustomerExists, type Customer } from "./customers.ts";
import { sendServiceTemplateEmail } from "../emails/email-sending.ts";
import { findAccount } from "./payment-accounts.ts";
import { hasTeamPermission } from "../teams/permission-grants.ts";
import {
  customerTypeOf,
  grantPaidOffer,
  productOfMetadata,
  providerCustomer,
  syncProviderSubscriptions,
} from "./provider-subscriptions.ts";
import { centsOf, moneyOf } from "./refunds.ts";
import { recordTransaction } from "./transactions.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * POST /integrations/stripe/webhooks: the payment provider's events, as upstream's receiver takes them. Nothing here
 * talks to a provider: the emulator is the provider's account registry itself (domain/ops/payments/payment-accounts.ts), so an event
 * names its project by the account it was sent for, and carries what it reports in its own object.
 *
 * The signature is checked as the provider signs (`stripe-signature: t=<seconds>,v1=<hex>`, HMAC-SHA256 of
 * `<t>.<raw body>` with the webhook secret, five minutes' tolerance against the emulator's clock). The secret is the
 * `stripeWebhookSecret` setting, by default the real service's development value (`mock_stripe_webhook_secret`, its
 * `.env.development`), so events signed for a local Stack Auth are accepted here too.
 *
 * Handled: a one-time purchase's `payment_intent.succeeded` (metadata `purchaseKind: ONE_TIME`) grants the product
 * once per payment intent and mails a receipt; its `payment_intent.payment_failed` mails the failure. Subscription and
 * invoice events sync the customer's subscriptions from the provider's objects the event carries
 * (domain/ops/payments/provider-subscriptions.ts), keep the invoice, and mail a paid invoice's receipt or an uncollectible one's
 * failure. The events upstream ignores are accepted; a type it does not know is its internal error (500).
 */

export const DEFAULT_STRIPE_WEBHOOK_SECRET = "mock_stripe_webhook_secret";
const TOLERANCE_SECONDS = 300;

/** Events upstream receives and does nothing with. */
const ignoredEvents = new Set([
  "account.updated",
  "account.application.authorized",
  "capability.updated",
  "charge.failed",
  "balance.available",
  "customer.updated",
]);

/** Events upstream answers by syncing the customer's subscriptions (and invoices) from the provider. */
const subscriptionEvents = new Set([
  "checkout.session.completed",
  ...[
    "created",
    "updated",
    "deleted",
    "paused",
    "resumed",
    "pending_update_applied",
    "pending_update_expired",
    "trial_will_end",
  ].map((e) => `customer.subscription.${e}`),
  ...[
    "created",
    "finalized",
    "updated",
    "voided",
    "paid",
    "payment_failed",
    "payment_action_required",
    "upcoming",
    "marked_uncollectible",
    "payment_succeeded",
  ].map((e) => `invoice.${e}`),
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

async function hmacHex(secret: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return Array.from(signature, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Compares in time independent of where the strings first differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The provider's signature check; any failure is upstream's plain 400. */
export async function verifyStripeSignature(ctx: OpContext, header: string, rawBody: string): Promise<unknown> {
  const parts = header.split(",").map((p) => p.trim().split("="));
  const timestamp = parts.find(([k]) => k === "t")?.[1];
  const signatures = parts.filter(([k, v]) => k === "v1" && v !== undefined).map(([, v]) => v!);
  if (timestamp === undefined || !/^\d+$/.test(timestamp) || signatures.length === 0)
    throw refusal("invalidStripeSignature");
  const secret = ctx.settings.stripeWebhookSecret ?? DEFAULT_STRIPE_WEBHOOK_SECRET;
  const expected = await hmacHex(secret, `${timestamp}.${rawBody}`);
  if (!signatures.some((s) => sameText(s, expected))) throw refusal("invalidStripeSignature");
  if (Math.abs(Math.floor(ctx.now / 1000) - Number(timestamp)) > TOLERANCE_SECONDS)
    throw refusal("invalidStripeSignature");
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    throw refusal("invalidStripeSignature");
  }
}

/** Checks the signature, then takes the event. */
export async function receiveStripeWebhook(ctx: OpContext, signature: string, rawBody: string): Promise<void> {
  await receiveStripeEvent(ctx, await verifyStripeSignature(ctx, signature, rawBody));
}

/** The provider objects an event carries a view of (the real service's test provider reads them from here). */
const providerViews = (object: Json): Json =>
  isObject(object.stack_stripe_mock_data) ? object.stack_stripe_mock_data : {};

async function receiveStripeEvent(ctx: OpContext, event: unknown): Promise<void> {
  if (!isObject(event) || typeof event.type !== "string") throw refusal("invalidStripeSignature");
  const object = isObject(event.data) && isObject(event.data.object) ? event.data.object : {};
  const metadata = isObject(object.metadata) ? object.metadata : {};
  if (event.type === "payment_intent.succeeded" && metadata.purchaseKind === "ONE_TIME") {
    const paid = oneTimePurchasePaid(ctx, text(event.account), object, metadata);
    const receipt = firstCharge(object)?.receipt_url;
    await sendPaymentEmail(ctx, paid.project, paid.customer, DEFAULT_TEMPLATE_IDS.payment_receipt, {
      productName: paid.offer.display_name,
      quantity: paid.quantity,
      amount: formatAmount(object.amount_received, object.currency),
      ...(text(receipt) ? { receiptLink: text(receipt) } : {}),
    });
    return;
  }
  if (event.type === "payment_intent.payment_failed" && metadata.purchaseKind === "ONE_TIME") {
    const project = projectOfAccount(ctx, text(event.account));
    const customer = metadataCustomer(metadata, "payment_intent.payment_failed of a one-time purchase");
    const { offer } = productOfMetadata(ctx, project, metadata, "payment intent");
    const lastError = isObject(object.last_payment_error) ? text(object.last_payment_error.message) : undefined;
    await sendPaymentEmail(ctx, project, customer, DEFAULT_TEMPLATE_IDS.payment_failed, {
      productName: offer.display_name,
      amount: formatAmount(object.amount, object.currency),
      ...(lastError ? { failureReason: lastError } : {}),
    });
    return;
  }
  // Chargebacks are reported to the service's operators (a chat message upstream), which the emulator has none of.
  if (event.type === "charge.dispute.created" || ignoredEvents.has(event.type)) return;
  if (subscriptionEvents.has(event.type)) {
    await subscriptionChanged(ctx, event.type, text(event.account), object);
    return;
  }
  // The real service fails on a type it does not know with an internal error (500), which its tests expect.
  throw refusal("unknownStripeWebhookTypeReceived", event.type);
}

function projectOfAccount(ctx: OpContext, accountId: string | undefined): ProjectRecord {
  const account = accountId === undefined ? undefined : findAccount(ctx, accountId);
  const project = account ? ctx.tables.projects.get(account.projectId) : undefined;
  if (!project) throw refusal("noPaymentsAccountSetUp", accountId ?? "(none)");
  return project;
}

function metadataCustomer(metadata: Json, what: string): Customer {
  const id = text(metadata.customerId);
  const type = customerTypeOf(metadata.customerType);
  if (id === undefined || type === undefined) throw refusal("nameCustomerMetadataCustomeridCustomertype", what);
  return { type, id };
}

const firstCharge = (paymentIntent: Json): Json | undefined => {
  const charges =
    isObject(paymentIntent.charges) && Array.isArray(paymentIntent.charges.data)
      ? (paymentIntent.charges.data as unknown[])
      : [];
  return isObject(charges[0]) ? charges[0] : undefined;
};

/** An amount in cents as the payment emails show it: "USD 5.00" (no currency: the number alone). */
export function formatAmount(cents: unknown, currency: unknown): string {
  if (typeof cents !== "number" || Number.isNaN(cents)) return "Amount unavailable";
  const amount = (cents / 100).toFixed(2);
  const code = text(currency)?.toUpperCase();
  return code ? `${code} ${amount}` : amount;
}

/** A payment email goes to the paying user, or to every team_admin of the paying team; custom customers get none. */
async function sendPaymentEmail(
  ctx: OpContext,
  project: ProjectRecord,
  customer: Customer,
  templateId: string,
  variables: Record<string, string | number>,
): Promise<void> {
  let users: UserRecord[] = [];
  if (customer.type === "user") {
    const user = ctx.tables.users.get(customer.id);
    users = user && user.projectId === project.id ? [user] : [];
  } else if (customer.type === "team") {
    const admins = new Set<string>();
    for (const membership of ctx.tables.teamMemberships.values()) {
      if (
        membership.teamId === customer.id &&
        hasTeamPermission(ctx, project.id, customer.id, membership.userId, "team_admin")
      )
        admins.add(membership.userId);
    }
    users = [...admins].map((id) => ctx.tables.users.get(id)).filter((u): u is UserRecord => u !== undefined);
  }
  if (users.length > 0) await sendServiceTemplateEmail(ctx, project, templateId, users, variables);
}

/**
 * A subscription or invoice event: the customer's subscriptions are synced from the provider's view
 * (domain/ops/payments/provider-subscriptions.ts); an invoice event also records the invoice, and a paid or finally failed invoice is
 * mailed to the customer.
 */
async function subscriptionChanged(
  ctx: OpContext,
  type: string,
  accountId: string | undefined,
  object: Json,
): Promise<void> {
  const providerCustomerId = text(object.customer);
  if (accountId === undefined) throw refusal("eventNamesNoAccount");
  if (providerCustomerId === undefined) throw refusal("eventNamesNoCustomer");
  const project = projectOfAccount(ctx, accountId);
  const views = providerViews(object);
  const customer = providerCustomer(ctx, project, providerCustomerId, views["customers.retrieve"]);
  syncProviderSubscriptions(ctx, project, customer, views["subscriptions.list"]);
  if (!type.startsWith("invoice.")) return;
  recordInvoice(ctx, project, customer, object);
  const lines = isObject(object.lines) && Array.isArray(object.lines.data) ? (object.lines.data as unknown[]) : [];
  const line = isObject(lines[0]) ? lines[0] : undefined;
  const productName = text(line?.description) ?? "Subscription";
  if (type === "invoice.payment_succeeded") {
    const receipt = text(object.hosted_invoice_url) ?? text(object.invoice_pdf);
    await sendPaymentEmail(ctx, project, customer, DEFAULT_TEMPLATE_IDS.payment_receipt, {
      productName,
      quantity: typeof line?.quantity === "number" ? line.quantity : 1,
      amount: formatAmount(object.amount_paid, object.currency),
      ...(receipt ? { receiptLink: receipt } : {}),
    });
  }
  // Only an invoice the provider gave up on: one still open may yet be paid on a retry.
  if (type === "invoice.payment_failed" && object.status === "uncollectible") {
    const invoiceUrl = text(object.hosted_invoice_url);
    await sendPaymentEmail(ctx, project, customer, DEFAULT_TEMPLATE_IDS.payment_failed, {
      productName,
      amount: formatAmount(object.amount_due, object.currency),
      ...(invoiceUrl ? { invoiceUrl } : {}),
    });
  }
}

const invoiceStatuses = new Set(["draft", "open", "paid", "uncollectible", "void"]);

/**
 * Keeps an invoice of one provider subscription (one naming none is not a subscription's and is not kept). The first
 * time a renewal invoice (not the subscription's first) is seen for a subscription the customer holds, the renewal's
 * payment is recorded as a "subscription-renewal" transaction: the held plan's price times its quantity.
 */
function recordInvoice(ctx: OpContext, project: ProjectRecord, customer: Customer, invoice: Json): void {
  const invoiceId = text(invoice.id);
  const lines = isObject(invoice.lines) && Array.isArray(invoice.lines.data) ? (invoice.lines.data as unknown[]) : [];
  const subscriptionIds = lines
    .map((line) =>
      isObject(line) && isObject(line.parent) && isObject(line.parent.subscription_item_details)
        ? text(line.parent.subscription_item_details.subscription)
        : undefined,
    )
    .filter((id): id is string => id !== undefined);
  if (invoiceId === undefined || subscriptionIds.length === 0) return;
  if (new Set(subscriptionIds).size > 1) throw refusal("invoiceMayBillOneSubscription");
  const key = invoiceKey(project.id, invoiceId);
  const known = ctx.tables.subscriptionInvoices.get(key);
  const status = text(invoice.status);
  const isCreationInvoice = invoice.billing_reason === "subscription_create";
  ctx.tables.subscriptionInvoices.set(key, {
    projectId: project.id,
    invoiceId,
    providerSubscriptionId: subscriptionIds[0]!,
    customerType: customer.type,
    customerId: customer.id,
    isCreationInvoice,
    status:
      status !== undefined && invoiceStatuses.has(status) ? (status as SubscriptionInvoiceRecord["status"]) : null,
    amountTotal: typeof invoice.total === "number" ? invoice.total : 0,
    hostedInvoiceUrl: text(invoice.hosted_invoice_url) ?? null,
    createdAtMillis: known?.createdAtMillis ?? ctx.now,
    seq: known?.seq ?? nextSequence(ctx.tables, "subscriptionInvoices"),
  });
  if (known || isCreationInvoice) return;
  const held = ctx.tables.providerSubscriptions.get(providerKey(project.id, subscriptionIds[0]!))?.heldSubscriptionId;
  const grant = held ? grantOf(ctx, project.id, held) : undefined;
  if (!grant) return;
  const price =
    grant.price_id !== null && Object.hasOwn(grant.product.prices, grant.price_id)
      ? grant.product.prices[grant.price_id]
      : undefined;
  const who = {
    adjusted_transaction_id: null,
    adjusted_entry_index: null,
    customer_type: customer.type,
    customer_id: customer.id,
  };
  recordTransaction(ctx, project.id, {
    type: "subscription-renewal",
    customer,
    entries: price
      ? [
          {
            type: "money_transfer",
            ...who,
            charged_amount: { USD: moneyOf(centsOf(price.USD) * grant.quantity) },
            net_amount: { USD: moneyOf(centsOf(price.USD) * grant.quantity) },
          },
        ]
      : [],
    offerId: grant.product_id,
  });
}

/** The product grant of the purchase that started a held subscription. */
function grantOf(ctx: OpContext, projectId: string, subscriptionId: string) {
  for (const t of ctx.tables.paymentTransactions.values()) {
    if (t.projectId !== projectId || t.type !== "purchase") continue;
    for (const entry of t.entries)
      if (entry.type === "product_grant" && entry.subscription_id === subscriptionId) return entry;
  }
  return undefined;
}

/** A one-time purchase paid: grants the product once per payment intent (a retried event grants nothing twice). */
function oneTimePurchasePaid(
  ctx: OpContext,
  accountId: string | undefined,
  paymentIntent: Json,
  metadata: Json,
): { project: ProjectRecord; customer: Customer; offer: OfferConfig; quantity: number } {
  const project = projectOfAccount(ctx, accountId);
  const paymentIntentId = text(paymentIntent.id);
  if (paymentIntentId === undefined) throw refusal("paymentIntentSucceededOneTime");
  const customer = metadataCustomer(metadata, "payment_intent.succeeded of a one-time purchase");
  const { productId, offer } = productOfMetadata(ctx, project, metadata, "payment intent");
  const quantity = Math.max(1, Math.trunc(Number(text(metadata.purchaseQuantity) ?? "1")) || 1);
  for (const t of ctx.tables.paymentTransactions.values())
    if (t.projectId === project.id && t.paymentIntentId === paymentIntentId)
      return { project, customer, offer, quantity };
  assertCustomerExists(ctx, project.id, customer);
  grantPaidOffer(ctx, project.id, customer, {
    productId,
    offer,
    priceId: text(metadata.priceId) ?? null,
    quantity,
    paymentIntentId,
  });
  return { project, customer, offer, quantity };
}
