import { z } from "zod";
import { millis } from "./common.ts";
import { customerType, inlineProductJson, offerConfig } from "./payments.ts";

/**
 * Payments' transactions (admin): what the ledger records per purchase, renewal, refund or change, as the emulator keeps
 * each entry and as the wire shows it (upstream's stack-shared crud/transactions), and the listing's query and answer.
 */

export const transactionTypes = [
  "purchase",
  "subscription-cancellation",
  "subscription-renewal",
  "manual-item-quantity-change",
  "refund",
  "chargeback",
  "product-change",
] as const;
export const transactionType = z.enum(transactionTypes);
export type TransactionType = z.infer<typeof transactionType>;

const entryBase = {
  adjusted_transaction_id: z.string().nullable(),
  adjusted_entry_index: z.number().int().nonnegative().nullable(),
  customer_type: customerType,
  customer_id: z.string(),
};
/** A revocation of granted product quantity (a refund's), naming the grant it adjusts (upstream's product_revocation). */
const productRevocationEntry = z.object({
  type: z.literal("product_revocation"),
  adjusted_transaction_id: z.string(),
  adjusted_entry_index: z.number().int().nonnegative(),
  quantity: z.number().int(),
});
/** A transaction's entries, given how a product grant carries its product. */
function transactionEntryWith<Product extends z.ZodType>(product: Product) {
  return z.discriminatedUnion("type", [
    z.object({
      type: z.literal("item_quantity_change"),
      ...entryBase,
      item_id: z.string(),
      quantity: z.number().int(),
    }),
    z.object({
      type: z.literal("product_grant"),
      ...entryBase,
      product_id: z.string().nullable(),
      product,
      price_id: z.string().nullable(),
      quantity: z.number().int(),
      one_time_purchase_id: z.string().optional(),
      /** Set when the price recurs: the grant is a subscription (the emulator's, cancellable by DELETE of the product). */
      subscription_id: z.string().optional(),
    }),
    z.object({
      type: z.literal("money_transfer"),
      ...entryBase,
      charged_amount: z.object({ USD: z.string() }),
      net_amount: z.object({ USD: z.string() }),
    }),
    productRevocationEntry,
  ]);
}
/** What the emulator stores per transaction entry: product grants keep the offer snapshot as configured. */
export const transactionEntry = transactionEntryWith(offerConfig);
export type TransactionEntryJson = z.infer<typeof transactionEntry>;

/** The wire entry (stack-shared crud/transactions): a product grant carries the inline-product view of its snapshot. */
export const transactionEntryJson = transactionEntryWith(z.lazy(() => inlineProductJson));
export type TransactionEntryWireJson = z.infer<typeof transactionEntryJson>;

/** Upstream's transaction shape (stack-shared crud/transactions): the customer is named by each entry, not the transaction. */
export const transactionJson = z.object({
  id: z.string(),
  created_at_millis: millis,
  effective_at_millis: millis,
  type: transactionType.nullable(),
  entries: z.array(transactionEntryJson),
  adjusted_by: z.array(z.object({ transaction_id: z.string(), entry_index: z.number().int().nonnegative() })),
  test_mode: z.boolean(),
});
export type TransactionJson = z.infer<typeof transactionJson>;

/**
 * Upstream reads `limit` as any string and parses it with parseInt: a leading integer is taken ("12abc" is 12), clamped
 * to 1..200, and what does not start with one ("ten", "") falls back to 50. Nothing is refused.
 */
export const transactionLimit = z.string().transform((s) => {
  const parsed = Number.parseInt(s, 10);
  return Math.max(1, Math.min(200, Number.isFinite(parsed) ? parsed : 50));
});

/**
 * The type filter's values (stack-shared TRANSACTION_TYPES): the stored `refund` type is not one of them, so
 * `type=refund` is refused by the schema like any other unknown value.
 */
export const transactionFilterType = z.enum([
  "purchase",
  "subscription-cancellation",
  "subscription-renewal",
  "manual-item-quantity-change",
  "chargeback",
  "product-change",
]);
export type TransactionFilterType = z.infer<typeof transactionFilterType>;

/** Upstream's query schema: no customer_id (an unknown property is a schema error), any cursor string. */
export const listTransactionsQuery = z.strictObject({
  /** Opaque: base64url JSON of the last row's creation time and ledger id; empty is taken as absent. */
  cursor: z.string().optional(),
  limit: transactionLimit.optional(),
  type: transactionFilterType.optional(),
  customer_type: customerType.optional(),
});
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;
export const listTransactionsResponse = z.object({
  transactions: z.array(transactionJson),
  next_cursor: z.string().nullable(),
});
