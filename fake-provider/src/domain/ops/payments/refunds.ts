import type { RefundTransactionBody, TransactionEntryJson } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { PaymentTransactionRecord } from "../../store/payment-records.ts";
import type { OpContext } from "../context.ts";
import { cancelSubscriptions } from "./purchases.ts";
import { activeSubscriptions } from "./subscriptions.ts";
import { recordTransaction } from "./transactions.ts";

/**
 * POST /internal/payments/transactions/refund (upstream's refund route): an admin refunds a paid purchase, in part or
 * whole. The refund is a "refund" transaction `${id}:refund` that revokes the product quantities it names and moves
 * the money back; it is not listed itself but shows as `adjusted_by` of what it refunds (domain/ops/payments/transactions.ts), and a
 * one-time product whose quantity it revokes is no longer held (domain/ops/payments/subscriptions.ts ownedProducts).
 *
 * What can be refunded is what was paid for: a test-mode purchase is TEST_MODE_PURCHASE_NON_REFUNDABLE; a purchase
 * that moved no money (a server's grant) has no payment to refund, which upstream answers as not found. A subscription
 * without a paid first invoice (test mode, a grant) is SUBSCRIPTION_INVOICE_NOT_FOUND, as upstream finds no creation
 * invoice for it.
 */

const schema = (message: string) => knownError("SCHEMA_ERROR", { message });

/** Cents of a money amount ("12.5" → 1250); amounts are digits with an optional fraction (the contract's moneyAmount). */
export function centsOf(amount: string): number {
  const [whole, fraction = ""] = amount.split(".");
  return Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
}

/** Upstream's money amount of a number of cents: no trailing zeros in the fraction ("-12.5", "-50", "0"). */
export function moneyOf(cents: number): string {
  const absolute = Math.abs(cents);
  const whole = Math.floor(absolute / 100);
  const fraction = String(absolute % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return `${cents < 0 ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Upstream's checks of the refund entries, in its order, against the refunded transaction's entries. */
function validateRefundEntries(
  entries: readonly TransactionEntryJson[],
  refundEntries: RefundTransactionBody["refund_entries"],
): void {
  const seen = new Set<number>();
  for (const r of refundEntries) {
    if (r.quantity < 0) throw schema("Refund quantity cannot be negative.");
    if (seen.has(r.entry_index)) throw schema("Refund entries cannot contain duplicate entry indexes.");
    seen.add(r.entry_index);
    const entry = r.entry_index >= 0 ? entries[r.entry_index] : undefined;
    if (!entry) throw schema("Refund entry index is invalid.");
    if (entry.type !== "product_grant") throw schema("Refund entries must reference product grant entries.");
    if (r.quantity > entry.quantity) throw schema("Refund quantity cannot exceed purchased quantity.");
  }
}

/** The USD price paid for the grant (entry 0), in cents, times its quantity. */
function chargedCents(purchase: PaymentTransactionRecord): number {
  const grant = purchase.entries[0];
  if (grant?.type !== "product_grant") return 0;
  const priceId = grant.price_id ?? Object.keys(grant.product.prices)[0];
  const price =
    priceId !== undefined && Object.hasOwn(grant.product.prices, priceId) ? grant.product.prices[priceId] : undefined;
  if (!price) throw schema("Refund amounts can only be specified for USD-priced purchases.");
  return centsOf(price.USD) * grant.quantity;
}

const paid = (t: PaymentTransactionRecord) => !t.testMode && t.entries.some((e) => e.type === "money_transfer");

function findPurchase(
  ctx: OpContext,
  projectId: string,
  predicate: (t: PaymentTransactionRecord) => boolean,
): PaymentTransactionRecord | undefined {
  for (const t of ctx.tables.paymentTransactions.values())
    if (t.projectId === projectId && t.type === "purchase" && predicate(t)) return t;
  return undefined;
}

export function refundTransaction(ctx: OpContext, auth: Auth, body: RefundTransactionBody): void {
  const projectId = auth.project.id;
  const refundId = `${body.id}:refund`;
  const alreadyRefunded = ctx.tables.paymentTransactions.get(refundId)?.projectId === projectId;
  let purchase: PaymentTransactionRecord | undefined;
  if (body.type === "subscription") {
    purchase = findPurchase(
      ctx,
      projectId,
      (t) => t.entries[0]?.type === "product_grant" && t.entries[0].subscription_id === body.id,
    );
    if (!purchase) throw knownError("SUBSCRIPTION_INVOICE_NOT_FOUND", { subscription_invoice_id: body.id });
    if (alreadyRefunded) throw knownError("SUBSCRIPTION_ALREADY_REFUNDED", { subscription_id: body.id });
    if (!paid(purchase)) throw knownError("SUBSCRIPTION_INVOICE_NOT_FOUND", { subscription_invoice_id: body.id });
  } else {
    purchase = findPurchase(ctx, projectId, (t) => t.id === body.id);
    if (!purchase) throw knownError("ONE_TIME_PURCHASE_NOT_FOUND", { one_time_purchase_id: body.id });
    if (alreadyRefunded) throw knownError("ONE_TIME_PURCHASE_ALREADY_REFUNDED", { one_time_purchase_id: body.id });
    if (purchase.testMode) throw knownError("TEST_MODE_PURCHASE_NON_REFUNDABLE");
    if (!paid(purchase)) throw knownError("ONE_TIME_PURCHASE_NOT_FOUND", { one_time_purchase_id: body.id });
  }
  validateRefundEntries(purchase.entries, body.refund_entries);
  const total = chargedCents(purchase);
  const refunded = body.refund_entries.reduce((sum, r) => sum + centsOf(r.amount_usd), 0);
  if (refunded > total) throw schema("Refund amount cannot exceed the charged amount.");

  const grant = purchase.entries[0]!;
  if (grant.type !== "product_grant") return;
  const customer = { type: grant.customer_type, id: grant.customer_id };
  const who = {
    adjusted_transaction_id: null,
    adjusted_entry_index: null,
    customer_type: customer.type,
    customer_id: customer.id,
  };
  const moneyBack = { USD: moneyOf(-refunded) };
  recordTransaction(ctx, projectId, {
    id: refundId,
    type: "refund",
    customer,
    entries: [
      ...body.refund_entries.map((r): TransactionEntryJson => ({
        type: "product_revocation",
        adjusted_transaction_id: purchase.id,
        adjusted_entry_index: r.entry_index,
        quantity: r.quantity,
      })),
      { type: "money_transfer", ...who, charged_amount: moneyBack, net_amount: moneyBack },
    ],
    offerId: purchase.offerId,
  });
  // A subscription whose whole quantity is refunded ends with its paid period (upstream cancels it at period end).
  const revoked = body.refund_entries.reduce((sum, r) => sum + r.quantity, 0);
  if (body.type === "subscription" && revoked >= grant.quantity) {
    cancelSubscriptions(
      ctx,
      projectId,
      customer,
      activeSubscriptions(ctx, projectId, customer).filter((s) => s.id === body.id),
    );
  }
}
