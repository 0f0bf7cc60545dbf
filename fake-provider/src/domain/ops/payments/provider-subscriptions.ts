import type { CustomerType, OfferConfig } from "@authsim/sdk/contract";
import { providerKey, type ProviderSubscriptionRecord } from "../../store/payment-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { assertCustomerExists, type Customer } from "./customers.ts";
import { periodEnd, subscriptionsOf } from "./subscriptions.ts";
import { configuredProducts, offerOf, productFrom } from "./payments-config.ts";
import { cancelSubscriptions, grantOffer } from "./purchases.ts";
import { centsOf, moneyOf } from "./refunds.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The provider's customers and subscriptions as plain state (the emulator is the payment provider). The provider's
 * subscription events make the real service read the customer's subscriptions back from the provider and store what
 * it finds; here an event carries the provider's view of the objects it names (the `stack_stripe_mock_data` the real
 * service's own test provider answers with: `customers.retrieve`, `subscriptions.list`), which the emulator keeps,
 * then syncs the customer's holdings from them:
 *
 * - a provider subscription seen for the first time, still running, grants its product (a paid, provider-billed
 *   subscription, so it can be switched); one seen again grants nothing (a retried event changes nothing);
 * - one that has ended (canceled with its period over, or a terminal status) ends the held subscription then, with the
 *   items its purchase granted until the purchase expires.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 ? v : undefined);
const numberOf = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Statuses after which a subscription never runs again (the provider's). */
const TERMINAL = new Set(["incomplete_expired", "unpaid"]);

export function customerTypeOf(value: unknown): CustomerType | undefined {
  const lower = text(value)?.toLowerCase();
  return lower === "user" || lower === "team" || lower === "custom" ? lower : undefined;
}

/** The customer a provider customer stands for: from the event's view of it, else from what was kept before. */
export function providerCustomer(
  ctx: OpContext,
  project: ProjectRecord,
  providerCustomerId: string,
  view: unknown,
): Customer {
  const metadata = isObject(view) && isObject(view.metadata) ? view.metadata : undefined;
  if (metadata) {
    const id = text(metadata.customerId);
    const type = customerTypeOf(metadata.customerType);
    if (id === undefined || type === undefined) throw refusal("providerCustomerNamesNoCustomer", providerCustomerId);
    ctx.tables.providerCustomers.set(providerKey(project.id, providerCustomerId), {
      projectId: project.id,
      providerCustomerId,
      customerType: type,
      customerId: id,
    });
    return { type, id };
  }
  const kept = ctx.tables.providerCustomers.get(providerKey(project.id, providerCustomerId));
  if (!kept) throw refusal("noProviderCustomerEmulator", providerCustomerId);
  return { type: kept.customerType, id: kept.customerId };
}

/** The product a provider object bills: its metadata's product snapshot, else the configured product it names. */
export function productOfMetadata(
  ctx: OpContext,
  project: ProjectRecord,
  metadata: Json,
  what: string,
): { productId: string | null; offer: OfferConfig } {
  const productId = text(metadata.productId) ?? text(metadata.offerId) ?? null;
  const snapshot = text(metadata.product) ?? text(metadata.offer);
  if (snapshot !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(snapshot);
    } catch {
      parsed = undefined;
    }
    if (!isObject(parsed)) throw refusal("metadataProductNotObject", what);
    return { productId, offer: offerOf(productFrom(productId ?? "", parsed)) };
  }
  const configured = productId === null ? undefined : configuredProducts(ctx, project).find((p) => p.id === productId);
  if (!configured) throw refusal("metadataNamesNoProduct", what);
  return { productId, offer: offerOf(configured) };
}

/** Syncs every subscription of the provider's list for the customer. */
export function syncProviderSubscriptions(
  ctx: OpContext,
  project: ProjectRecord,
  customer: Customer,
  list: unknown,
): void {
  assertCustomerExists(ctx, project.id, customer);
  const data = isObject(list) && Array.isArray(list.data) ? (list.data as unknown[]) : [];
  for (const subscription of data) {
    if (isObject(subscription)) syncOne(ctx, project, customer, subscription);
  }
}

function syncOne(ctx: OpContext, project: ProjectRecord, customer: Customer, subscription: Json): void {
  const id = text(subscription.id);
  const items =
    isObject(subscription.items) && Array.isArray(subscription.items.data)
      ? (subscription.items.data as unknown[])
      : [];
  const item = items[0];
  if (id === undefined || !isObject(item)) return;
  const status = text(subscription.status) ?? "active";
  // A period whose end is not after its start is the provider's placeholder: a month from now stands in.
  let start = (numberOf(item.current_period_start) ?? 0) * 1000;
  let end = (numberOf(item.current_period_end) ?? 0) * 1000;
  if (!(start < end)) {
    start = ctx.now;
    end = periodEnd(ctx.now, [1, "month"]);
  }
  let endedAt: number | null = null;
  if (TERMINAL.has(status)) endedAt = (numberOf(subscription.ended_at) ?? 0) * 1000 || ctx.now;
  else if (status === "canceled" && end <= ctx.now) endedAt = end;

  const key = providerKey(project.id, id);
  const known = ctx.tables.providerSubscriptions.get(key);
  let held = known?.heldSubscriptionId ?? null;
  if (!known && endedAt === null) {
    const metadata = isObject(subscription.metadata) ? subscription.metadata : {};
    const { productId, offer } = productOfMetadata(ctx, project, metadata, "subscription");
    const quantity = Math.max(1, Math.trunc(numberOf(item.quantity) ?? 1));
    held = grantPaidOffer(ctx, project.id, customer, {
      productId,
      offer,
      priceId: text(metadata.priceId) ?? null,
      quantity,
    }).subscriptionId;
  }
  const record: ProviderSubscriptionRecord = {
    projectId: project.id,
    providerSubscriptionId: id,
    customerType: customer.type,
    customerId: customer.id,
    status,
    periodStartMillis: start,
    periodEndMillis: endedAt ?? end,
    cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
    heldSubscriptionId: held,
    endedAtMillis: known?.endedAtMillis ?? endedAt,
  };
  ctx.tables.providerSubscriptions.set(key, record);
  // An end reported for the first time ends what the customer holds, then.
  if (endedAt !== null && (known?.endedAtMillis ?? null) === null && held !== null) {
    const holding = subscriptionsOf(ctx, project.id, customer).find((s) => s.id === held && !s.canceled);
    if (holding) cancelSubscriptions(ctx, project.id, customer, [holding], endedAt);
  }
}

/**
 * A product the payment provider says was paid for (a subscription it holds, a one-time payment intent): granted at the
 * price the metadata names, charged that price times the quantity (nothing when the price is not the product's).
 */
export function grantPaidOffer(
  ctx: OpContext,
  projectId: string,
  customer: Customer,
  paid: {
    productId: string | null;
    offer: OfferConfig;
    priceId: string | null;
    quantity: number;
    paymentIntentId?: string;
  },
): ReturnType<typeof grantOffer> {
  const { productId, offer, priceId, quantity } = paid;
  const price = priceId !== null && Object.hasOwn(offer.prices, priceId) ? offer.prices[priceId] : undefined;
  return grantOffer(ctx, projectId, customer, {
    offerId: productId,
    offer,
    priceId,
    quantity,
    charged: price ? { USD: moneyOf(centsOf(price.USD) * quantity) } : null,
    testMode: false,
    ...(paid.paymentIntentId !== undefined ? { paymentIntentId: paid.paymentIntentId } : {}),
  });
}
