import type { ListTransactionsQuery, TransactionEntryJson, TransactionType } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { PaymentTransactionRecord } from "../../store/payment-records.ts";
import { nextSequence } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import type { Customer } from "./customers.ts";

/**
 * The admin transaction list (spec §3 "transaction listing"; upstream /internal/payments/transactions): every manual
 * quantity change and every purchase leaves one transaction, listed newest first with a cursor.
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

const newestFirst = (a: PaymentTransactionRecord, b: PaymentTransactionRecord) =>
  b.createdAtMillis - a.createdAtMillis || b.seq - a.seq;

/**
 * One page, newest first. The cursor is the id of the last transaction of the previous page (upstream's is opaque
 * base64url JSON; either way a client passes back what it was given). `next_cursor` is null exactly when nothing
 * follows, as upstream. A cursor that names no transaction of the project starts from the top, where upstream answers
 * a plain 400 "Invalid cursor" (a difference listed in docs/routes.md).
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
  const matching = [...ctx.tables.paymentTransactions.values()]
    .filter(
      (t) =>
        t.projectId === projectId &&
        // Refunds are not listed (as upstream's default list): they show as `adjusted_by` of what they adjust.
        (query.type === undefined ? t.type !== "refund" : t.type === query.type) &&
        (query.customer_type === undefined || t.customerType === query.customer_type) &&
        (query.customer_id === undefined || t.customerId === query.customer_id),
    )
    .sort(newestFirst);
  const limit = query.limit ?? DEFAULT_TRANSACTION_PAGE;
  const pivot = query.cursor === undefined ? undefined : ctx.tables.paymentTransactions.get(query.cursor);
  const rest = pivot && pivot.projectId === projectId ? matching.filter((t) => newestFirst(pivot, t) < 0) : matching;
  const items = rest.slice(0, limit);
  return {
    items,
    nextCursor: rest.length > limit ? items.at(-1)!.id : null,
    adjustedBy: adjustmentsOf(ctx, projectId),
  };
}

/** Per transaction id, the refund entries that adjust it (the list's `adjusted_by`). */
export function adjustmentsOf(
  ctx: Pick<OpContext, "tables">,
  projectId: string,
): Map<string, { transaction_id: string; entry_index: number }[]> {
  const adjusted = new Map<string, { transaction_id: string; entry_index: number }[]>();
  for (const t of ctx.tables.paymentTransactions.values()) {
    if (t.projectId !== projectId || t.type !== "refund") continue;
    for (const entry of t.entries) {
      if (entry.type !== "product_revocation") continue;
      const list = adjusted.get(entry.adjusted_transaction_id) ?? [];
      list.push({ transaction_id: t.id, entry_index: entry.adjusted_entry_index });
      adjusted.set(entry.adjusted_transaction_id, list);
    }
  }
  return adjusted;
}
