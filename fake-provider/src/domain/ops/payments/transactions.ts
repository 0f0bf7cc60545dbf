import type {
  ListTransactionsQuery,
  TransactionEntryJson,
  TransactionFilterType,
  TransactionType,
} from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { PaymentTransactionRecord } from "../../store/payment-records.ts";
import { nextSequence } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import type { Customer } from "./customers.ts";
import {
  decodeTransactionCursor,
  encodeTransactionCursor,
  ledgerIdOf,
  type TransactionCursor,
} from "./transaction-cursor.ts";

/**
 * The admin transaction list (spec §3 "transaction listing"; upstream /internal/payments/transactions): every manual
 * quantity change, purchase, renewal, cancellation and refund leaves one transaction; the list shows the first three.
 */

export const DEFAULT_TRANSACTION_PAGE = 50;

export function recordTransaction(
  ctx: OpContext,
  projectId: string,
  fields: {
    type: TransactionType;
    customer: Customer;
    entries: TransactionEntryJson[];
    testMode?: boolean;
    offerId?: string | null;
    /** Defaults to a new UUID (a one-time purchase's transaction has the purchase's id, a refund `${purchase}:refund`). */
    id?: string;
    paymentIntentId?: string;
    endedAtMillis?: number;
  },
): PaymentTransactionRecord {
  const record: PaymentTransactionRecord = {
    id: fields.id ?? uuid(ctx.random),
    projectId,
    type: fields.type,
    customerType: fields.customer.type,
    customerId: fields.customer.id,
    createdAtMillis: ctx.now,
    seq: nextSequence(ctx.tables, "paymentTransactions"),
    entries: fields.entries,
    testMode: fields.testMode ?? false,
    offerId: fields.offerId ?? null,
    ...(fields.paymentIntentId === undefined ? {} : { paymentIntentId: fields.paymentIntentId }),
    ...(fields.endedAtMillis === undefined ? {} : { endedAtMillis: fields.endedAtMillis }),
  };
  ctx.tables.paymentTransactions.set(record.id, record);
  return record;
}

/** What each type filter lists (upstream's ledger types for it); no filter lists every listed type. */
const LISTED_BY_FILTER: Record<TransactionFilterType, readonly TransactionType[]> = {
  purchase: ["purchase"],
  "manual-item-quantity-change": ["manual-item-quantity-change"],
  "subscription-renewal": ["subscription-renewal"],
  // Upstream keeps cancellations, chargebacks and plan changes out of its ledger's list: these filters list nothing.
  "subscription-cancellation": [],
  chargeback: [],
  "product-change": [],
};
const LISTED_BY_DEFAULT: readonly TransactionType[] = [
  "purchase",
  "manual-item-quantity-change",
  "subscription-renewal",
];

/** Upstream's order: creation time, then ledger id, both descending. */
const before = (a: TransactionCursor, b: TransactionCursor) =>
  a.createdAtMillis !== b.createdAtMillis ? a.createdAtMillis > b.createdAtMillis : a.txnId > b.txnId;

/**
 * One page, newest first (upstream /internal/payments/transactions). The default list holds purchases (subscription
 * starts and one-time purchases), manual item quantity changes and renewals; refunds are not listed but appear as
 * `adjusted_by` of what they revoke. The cursor is the position after the previous page's last row
 * (transaction-cursor.ts); a malformed one is a plain 400. `next_cursor` is null exactly when nothing follows.
 */
export function listTransactions(
  ctx: OpContext,
  projectId: string,
  query: ListTransactionsQuery,
): {
  items: PaymentTransactionRecord[];
  nextCursor: string | null;
  adjustedBy: Map<string, { transaction_id: string; entry_index: number }[]>;
} {
  const listed = query.type === undefined ? LISTED_BY_DEFAULT : LISTED_BY_FILTER[query.type];
  // Upstream answers an empty list for these filters before reading the cursor.
  if (listed.length === 0) return { items: [], nextCursor: null, adjustedBy: new Map() };
  // An empty cursor is taken as none, as upstream's truthiness test does.
  const after = query.cursor ? decodeTransactionCursor(query.cursor) : null;
  const rows = [...ctx.tables.paymentTransactions.values()]
    .filter(
      (t) =>
        t.projectId === projectId &&
        listed.includes(t.type) &&
        (query.customer_type === undefined || t.customerType === query.customer_type),
    )
    .map((t) => ({ t, key: { createdAtMillis: t.createdAtMillis, txnId: ledgerIdOf(t) } }))
    .filter(({ key }) => after === null || before(after, key))
    .sort((a, b) => (before(a.key, b.key) ? -1 : before(b.key, a.key) ? 1 : 0));
  const limit = query.limit ?? DEFAULT_TRANSACTION_PAGE;
  const page = rows.slice(0, limit);
  return {
    items: page.map(({ t }) => t),
    nextCursor: rows.length > limit ? encodeTransactionCursor(page.at(-1)!.key) : null,
    adjustedBy: adjustmentsOf(ctx, projectId),
  };
}

/**
 * Per transaction id, the refund entries that revoke part of it (the list's `adjusted_by`): each names the refund and
 * the revocation's own index within the refund's entries, as upstream builds it.
 */
export function adjustmentsOf(
  ctx: Pick<OpContext, "tables">,
  projectId: string,
): Map<string, { transaction_id: string; entry_index: number }[]> {
  const adjusted = new Map<string, { transaction_id: string; entry_index: number }[]>();
  for (const t of ctx.tables.paymentTransactions.values()) {
    if (t.projectId !== projectId || t.type !== "refund") continue;
    t.entries.forEach((entry, index) => {
      if (entry.type !== "product_revocation") return;
      const list = adjusted.get(entry.adjusted_transaction_id) ?? [];
      list.push({ transaction_id: t.id, entry_index: index });
      adjusted.set(entry.adjusted_transaction_id, list);
    });
  }
  return adjusted;
}
