import type { OfferConfig } from "@authsim/sdk/contract";
import type { PaymentTransactionRecord } from "../../store/payment-records.ts";
import type { OpContext } from "../context.ts";
import type { Customer } from "./customers.ts";

/**
 * What a customer holds, read from its purchase transactions (domain/ops/payments/transactions.ts): a grant whose price recurs is a
 * subscription (its product_grant entry carries `subscription_id`), any other a one-time purchase. Cancelling a
 * subscription records a "subscription-cancellation" transaction naming it; the product stays held until the end of
 * the period it was paid for, as upstream keeps it. Renewals are not emulated: an uncancelled subscription runs on.
 */

export const INLINE_PRODUCT = "__null__";

export interface HeldSubscription {
  id: string;
  productId: string;
  offer: OfferConfig;
  quantity: number;
  createdAtMillis: number;
  periodEndMillis: number;
  canceled: boolean;
}

export interface HeldProduct {
  quantity: number;
  offer: OfferConfig;
}

const unitMillis = { day: 86_400_000, week: 7 * 86_400_000, month: 30 * 86_400_000, year: 365 * 86_400_000 } as const;

/** The end of the first period of a subscription bought at `start` (calendar months and years, as a provider bills them). */
export function periodEnd(start: number, interval: [number, "day" | "week" | "month" | "year"]): number {
  const [count, unit] = interval;
  if (unit === "month" || unit === "year") {
    const date = new Date(start);
    if (unit === "month") date.setUTCMonth(date.getUTCMonth() + count);
    else date.setUTCFullYear(date.getUTCFullYear() + count);
    return date.getTime();
  }
  return start + count * unitMillis[unit];
}

function customerTransactions(
  ctx: Pick<OpContext, "tables">,
  projectId: string,
  customer: Customer,
): PaymentTransactionRecord[] {
  return [...ctx.tables.paymentTransactions.values()]
    .filter((t) => t.projectId === projectId && t.customerType === customer.type && t.customerId === customer.id)
    .sort((a, b) => a.seq - b.seq);
}

export function subscriptionsOf(
  ctx: Pick<OpContext, "tables">,
  projectId: string,
  customer: Customer,
): HeldSubscription[] {
  const subscriptions = new Map<string, HeldSubscription>();
  for (const t of customerTransactions(ctx, projectId, customer)) {
    for (const entry of t.entries) {
      if (entry.type !== "product_grant" || entry.subscription_id === undefined) continue;
      const existing = subscriptions.get(entry.subscription_id);
      if (t.type === "subscription-cancellation") {
        const ended =
          t.endedAtMillis === undefined
            ? existing?.periodEndMillis
            : Math.min(existing?.periodEndMillis ?? t.endedAtMillis, t.endedAtMillis);
        if (existing)
          subscriptions.set(existing.id, {
            ...existing,
            canceled: true,
            periodEndMillis: ended ?? existing.periodEndMillis,
          });
        continue;
      }
      // A server's grant records no price: its period is the product's recurring price's.
      const price =
        entry.price_id === null
          ? Object.values(entry.product.prices).find((p) => p.interval)
          : Object.hasOwn(entry.product.prices, entry.price_id)
            ? entry.product.prices[entry.price_id]
            : undefined;
      // A subscription the provider bills runs on the provider's period (domain/ops/payments/provider-subscriptions.ts).
      const billed = ctx.tables.providerSubscriptions.lookup("held", entry.subscription_id);
      subscriptions.set(entry.subscription_id, {
        id: entry.subscription_id,
        productId: entry.product_id ?? INLINE_PRODUCT,
        offer: entry.product,
        quantity: entry.quantity,
        createdAtMillis: t.createdAtMillis,
        periodEndMillis: billed
          ? billed.periodEndMillis
          : price?.interval
            ? periodEnd(t.createdAtMillis, price.interval)
            : Number.POSITIVE_INFINITY,
        canceled: false,
      });
    }
  }
  return [...subscriptions.values()];
}

/** Per product id (INLINE_PRODUCT for inline products): the quantity held now and the latest snapshot granted. */
export function ownedProducts(ctx: OpContext, projectId: string, customer: Customer): Map<string, HeldProduct> {
  const owned = new Map<string, HeldProduct>();
  const add = (key: string, quantity: number, offer: OfferConfig) =>
    owned.set(key, { quantity: (owned.get(key)?.quantity ?? 0) + quantity, offer });
  const transactions = customerTransactions(ctx, projectId, customer);
  const byId = new Map(transactions.map((t) => [t.id, t]));
  for (const t of transactions) {
    if (t.type === "purchase") {
      for (const entry of t.entries) {
        if (entry.type === "product_grant" && entry.subscription_id === undefined)
          add(entry.product_id ?? INLINE_PRODUCT, entry.quantity, entry.product);
      }
    } else if (t.type === "refund") {
      // A refund revokes the quantity it names of a one-time grant (domain/ops/payments/refunds.ts).
      for (const entry of t.entries) {
        if (entry.type !== "product_revocation") continue;
        const granted = byId.get(entry.adjusted_transaction_id)?.entries[entry.adjusted_entry_index];
        if (granted?.type === "product_grant" && granted.subscription_id === undefined)
          add(granted.product_id ?? INLINE_PRODUCT, -entry.quantity, granted.product);
      }
    }
  }
  for (const s of subscriptionsOf(ctx, projectId, customer)) {
    if (!s.canceled || ctx.now < s.periodEndMillis) add(s.productId, s.quantity, s.offer);
  }
  return owned;
}

export const activeSubscriptions = (ctx: OpContext, projectId: string, customer: Customer) =>
  subscriptionsOf(ctx, projectId, customer).filter((s) => !s.canceled);
