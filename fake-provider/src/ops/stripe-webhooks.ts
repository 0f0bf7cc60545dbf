import { StatusError } from "../http/known-error.ts";
import type { OpContext } from "./context.ts";
import { assertCustomerExists, type Customer } from "./customers.ts";
import { findAccount } from "./payment-accounts.ts";
import { centsOf, moneyOf } from "./refunds.ts";
import { configuredProducts, offerOf, productFrom } from "./payments-config.ts";
import { grantOffer } from "./purchases.ts";

/**
 * POST /integrations/stripe/webhooks: the payment provider's events, as upstream's receiver takes them. Nothing here
 * talks to a provider: the emulator is the provider's account registry itself (ops/payment-accounts.ts), so an event
 * names its project by the account it was sent for, and carries what it reports in its own object.
 *
 * The signature is checked as the provider signs (`stripe-signature: t=<seconds>,v1=<hex>`, HMAC-SHA256 of
 * `<t>.<raw body>` with the webhook secret, five minutes' tolerance against the emulator's clock). The secret is the
 * `stripeWebhookSecret` setting, by default the real service's development value (`mock_stripe_webhook_secret`, its
 * `.env.development`), so events signed for a local Stack Auth are accepted here too.
 *
 * Handled: a one-time purchase's `payment_intent.succeeded` (metadata `purchaseKind: ONE_TIME`) grants the product
 * once per payment intent; the events upstream ignores are accepted. Subscription and invoice events, which upstream
 * answers by reading the subscriptions back from the provider, are refused with a plain 400 (the emulator has no
 * provider to read them from), as is any type upstream does not know.
 */

export const DEFAULT_STRIPE_WEBHOOK_SECRET = "mock_stripe_webhook_secret";
const TOLERANCE_SECONDS = 300;
const INVALID_SIGNATURE = "Invalid stripe-signature header";

/** Events upstream receives and does nothing with. */
const ignoredEvents = new Set(["account.updated", "account.application.authorized", "capability.updated", "charge.failed", "balance.available", "customer.updated"]);

/** Events upstream answers by syncing the customer's subscriptions (and invoices) from the provider. */
const subscriptionEvents = new Set([
  "checkout.session.completed",
  ...["created", "updated", "deleted", "paused", "resumed", "pending_update_applied", "pending_update_expired", "trial_will_end"].map((e) => `customer.subscription.${e}`),
  ...["created", "finalized", "updated", "voided", "paid", "payment_failed", "payment_action_required", "upcoming", "marked_uncollectible", "payment_succeeded"].map((e) => `invoice.${e}`),
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "payment_intent.canceled",
]);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);

async function hmacHex(secret: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
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
  if (timestamp === undefined || !/^\d+$/.test(timestamp) || signatures.length === 0) throw new StatusError(400, INVALID_SIGNATURE);
  const secret = ctx.settings.stripeWebhookSecret ?? DEFAULT_STRIPE_WEBHOOK_SECRET;
  const expected = await hmacHex(secret, `${timestamp}.${rawBody}`);
  if (!signatures.some((s) => sameText(s, expected))) throw new StatusError(400, INVALID_SIGNATURE);
  if (Math.abs(Math.floor(ctx.now / 1000) - Number(timestamp)) > TOLERANCE_SECONDS) throw new StatusError(400, INVALID_SIGNATURE);
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    throw new StatusError(400, INVALID_SIGNATURE);
  }
}

/** Checks the signature, then takes the event. */
export async function receiveStripeWebhook(ctx: OpContext, signature: string, rawBody: string): Promise<void> {
  receiveStripeEvent(ctx, await verifyStripeSignature(ctx, signature, rawBody));
}

function receiveStripeEvent(ctx: OpContext, event: unknown): void {
  if (!isObject(event) || typeof event.type !== "string") throw new StatusError(400, INVALID_SIGNATURE);
  const object = isObject(event.data) && isObject(event.data.object) ? event.data.object : {};
  const metadata = isObject(object.metadata) ? object.metadata : {};
  if (event.type === "payment_intent.succeeded" && metadata.purchaseKind === "ONE_TIME") {
    oneTimePurchasePaid(ctx, text(event.account), object, metadata);
    return;
  }
  if (ignoredEvents.has(event.type) || (event.type === "charge.dispute.created" && text(event.account) !== undefined)) return;
  if (subscriptionEvents.has(event.type)) {
    throw new StatusError(400, `Stripe event ${event.type} is not emulated: the real service reads the customer's subscriptions back from Stripe, which authsim does not have`);
  }
  throw new StatusError(400, `Unknown stripe webhook type received: ${event.type}`);
}

function oneTimePurchasePaid(ctx: OpContext, accountId: string | undefined, paymentIntent: Json, metadata: Json): void {
  const account = accountId === undefined ? undefined : findAccount(ctx, accountId);
  if (!account) throw new StatusError(400, `No payments account ${accountId ?? "(none)"} is set up in this emulator`);
  const project = ctx.tables.projects.get(account.projectId);
  const paymentIntentId = text(paymentIntent.id);
  const customerId = text(metadata.customerId);
  const customerType = text(metadata.customerType)?.toLowerCase();
  if (!project || paymentIntentId === undefined || customerId === undefined || (customerType !== "user" && customerType !== "team" && customerType !== "custom")) {
    throw new StatusError(400, "payment_intent.succeeded of a one-time purchase must name its id and the customer (metadata customerId, customerType)");
  }
  // A retried event grants nothing twice (upstream keys one-time purchases by payment intent).
  for (const t of ctx.tables.paymentTransactions.values()) if (t.projectId === project.id && t.paymentIntentId === paymentIntentId) return;

  const productId = text(metadata.productId) ?? null;
  let product: Json | undefined;
  const snapshot = text(metadata.product) ?? text(metadata.offer);
  if (snapshot !== undefined) {
    try {
      const parsed: unknown = JSON.parse(snapshot);
      if (isObject(parsed)) product = parsed;
    } catch {
      product = undefined;
    }
    if (!product) throw new StatusError(400, "The product in the payment intent's metadata is not a JSON object");
  }
  const configured = productId === null ? undefined : configuredProducts(ctx, project).find((p) => p.id === productId);
  const offer = product ? offerOf(productFrom(productId ?? "", product)) : configured ? offerOf(configured) : undefined;
  if (!offer) throw new StatusError(400, "The payment intent's metadata names no product");
  const customer: Customer = { type: customerType, id: customerId };
  assertCustomerExists(ctx, project.id, customer);
  const quantity = Math.max(1, Math.trunc(Number(text(metadata.purchaseQuantity) ?? "1")) || 1);
  const priceId = text(metadata.priceId) ?? null;
  const price = priceId !== null && Object.hasOwn(offer.prices, priceId) ? offer.prices[priceId] : undefined;
  grantOffer(ctx, project.id, customer, {
    offerId: productId,
    offer,
    priceId,
    quantity,
    charged: price ? { USD: moneyOf(centsOf(price.USD) * quantity) } : null,
    testMode: false,
    paymentIntentId,
  });
}
