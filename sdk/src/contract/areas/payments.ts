import { z } from "zod";
import { int32, millis, queryBoolean } from "./common.ts";

/**
 * Payments (spec §3 "Item", §4 "Item quantity", §7; protocol.md §5.13): items held by customers, offers (the published
 * SDK calls them products) that grant items when bought, purchase URLs, the payment-provider account and transactions.
 */

/** A customer is a user, a team, or an id the project makes up itself ("custom"). */
export const customerTypes = ["user", "team", "custom"] as const;
export const customerType = z.enum(customerTypes);
export type CustomerType = z.infer<typeof customerType>;

/** Ids of items, offers and prices: they appear in URL paths, so no slashes or spaces. */
export const catalogueId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "must be 1-64 letters, digits, '_', '.' or '-'");

/** An ISO 8601 instant, as upstream reads `expires_at` (`new Date(expires_at)`). */
export const isoInstant = z.string().refine((s) => !Number.isNaN(Date.parse(s)), "must be an ISO 8601 date");

// ---- Items ----

/** Ids in paths are plain strings (as upstream's): an id the catalogue lacks is ITEM_NOT_FOUND, not a schema error. */
const pathId = z.string().min(1).max(256);
export const itemParams = z.strictObject({ customer_type: customerType, customer_id: pathId, item_id: pathId });
export type ItemParams = z.infer<typeof itemParams>;

/** GET /payments/items/{type}/{id}/{item}: the quantity may be negative (spec §3). */
export const itemJson = z.object({ id: z.string(), display_name: z.string(), quantity: z.number().int() });
export type ItemJson = z.infer<typeof itemJson>;

/** `allow_negative` defaults to false (spec §9). */
export const updateItemQuantityQuery = z.strictObject({ allow_negative: queryBoolean.optional() });
export const updateItemQuantityBody = z.strictObject({
  delta: int32,
  expires_at: isoInstant.optional(),
  description: z.string().max(1000).optional(),
});
export type UpdateItemQuantityBody = z.infer<typeof updateItemQuantityBody>;
/** Upstream answers an empty object. */
export const updateItemQuantityResponse = z.object({});

// ---- Catalogue: items and offers (project config) ----

export const itemConfig = z.strictObject({ display_name: z.string().min(1).max(256), customer_type: customerType });
export type ItemConfig = z.infer<typeof itemConfig>;

/** A decimal amount in US dollars, e.g. "9.99" (upstream's money amount strings). */
export const usdAmount = z.string().regex(/^\d{1,9}(\.\d{1,2})?$/, "must be a decimal amount such as 9.99");
export const priceInterval = z.tuple([z.number().int().positive(), z.enum(["day", "week", "month", "year"])]);

export const offerPrice = z.strictObject({
  USD: usdAmount,
  /** Recorded on the purchase; renewals are not emulated (a purchase grants its items once). */
  interval: priceInterval.optional(),
});
export type OfferPrice = z.infer<typeof offerPrice>;

/**
 * What a purchase grants per item. Periodic grants (`repeat` other than "never") are refused rather than silently
 * ignored; emulated purchases never end, so "when-purchase-expires" grants never expire either.
 */
export const includedItem = z.strictObject({
  quantity: int32.nonnegative(),
  repeat: z.literal("never").optional(),
  expires: z.enum(["never", "when-purchase-expires"]).optional(),
});

export const offerConfig = z.strictObject({
  display_name: z.string().min(1).max(256),
  customer_type: customerType,
  /** Clients may not buy it: PRODUCT_DOES_NOT_EXIST with context "server_only" (upstream's rule). */
  server_only: z.boolean().default(false),
  /** Concealed from clients: to them it does not exist at all (context null), spec §6 "offers ... may be hidden". */
  hidden: z.boolean().default(false),
  /** May be bought more than once, and with a quantity above 1. */
  stackable: z.boolean().default(false),
  prices: z.record(catalogueId, offerPrice),
  included_items: z.record(catalogueId, includedItem),
});
export type OfferConfig = z.output<typeof offerConfig>;
export type OfferConfigInput = z.input<typeof offerConfig>;

export const paymentsCatalogue = z.strictObject({
  items: z.record(catalogueId, itemConfig).default({}),
  offers: z.record(catalogueId, offerConfig).default({}),
});
export type PaymentsCatalogue = z.output<typeof paymentsCatalogue>;
export type PaymentsCatalogueInput = z.input<typeof paymentsCatalogue>;

// ---- Purchases ----

/**
 * POST /payments/purchases/create-purchase-url. Spec §7 names `offer_id` / `inline_offer`; the published SDK 2.8.108
 * sends `product_id` / `product_inline` for the same thing, so both spellings are accepted (exactly one of the four).
 */
export const createPurchaseUrlBody = z
  .strictObject({
    customer_type: customerType,
    customer_id: z.string().min(1),
    offer_id: pathId.optional(),
    inline_offer: offerConfig.optional(),
    product_id: pathId.optional(),
    product_inline: offerConfig.optional(),
    return_url: z.string().url().optional(),
  })
  .refine(
    (b) => [b.offer_id, b.inline_offer, b.product_id, b.product_inline].filter((v) => v !== undefined).length === 1,
    "must name exactly one of offer_id, inline_offer, product_id or product_inline",
  );
export type CreatePurchaseUrlBody = z.infer<typeof createPurchaseUrlBody>;
export const createPurchaseUrlResponse = z.object({ url: z.string().url() });

/** POST /internal/payments/test-mode-purchase-session: completes a checkout without payment (test mode). */
export const testModePurchaseBody = z.strictObject({
  full_code: z.string().min(1),
  price_id: pathId,
  quantity: int32.positive().optional(),
});

// ---- Payment-provider account (admin) ----

export const paymentsSetupResponse = z.object({ url: z.string().url() });
export const stripeAccountInfo = z.object({
  account_id: z.string(),
  charges_enabled: z.boolean(),
  details_submitted: z.boolean(),
  payouts_enabled: z.boolean(),
});
export type StripeAccountInfoJson = z.infer<typeof stripeAccountInfo>;
export const stripeWidgetSessionResponse = z.object({ client_secret: z.string() });

// ---- Transactions (admin) ----

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
export const transactionEntry = z.discriminatedUnion("type", [
  z.object({ type: z.literal("item_quantity_change"), ...entryBase, item_id: z.string(), quantity: z.number().int() }),
  z.object({
    type: z.literal("product_grant"),
    ...entryBase,
    product_id: z.string().nullable(),
    product: offerConfig,
    price_id: z.string().nullable(),
    quantity: z.number().int(),
    one_time_purchase_id: z.string().optional(),
  }),
  z.object({ type: z.literal("money_transfer"), ...entryBase, charged_amount: z.object({ USD: usdAmount }), net_amount: z.object({ USD: usdAmount }) }),
]);
export type TransactionEntryJson = z.infer<typeof transactionEntry>;

/** Upstream's transaction shape (stack-shared crud/transactions), restricted to the entry kinds the emulator makes. */
export const transactionJson = z.object({
  id: z.string(),
  created_at_millis: millis,
  effective_at_millis: millis,
  type: transactionType.nullable(),
  customer_type: customerType,
  customer_id: z.string(),
  entries: z.array(transactionEntry),
  adjusted_by: z.array(z.object({ transaction_id: z.string(), entry_index: z.number().int().nonnegative() })),
  test_mode: z.boolean(),
});
export type TransactionJson = z.infer<typeof transactionJson>;

/** Upstream reads `limit` as a string and clamps it to 1..200 (default 50) rather than refusing it. */
export const transactionLimit = z
  .string()
  .regex(/^\d+$/, "must be a whole number")
  .transform((s) => Math.max(1, Math.min(200, Number.parseInt(s, 10))));

export const listTransactionsQuery = z.strictObject({
  cursor: z.string().min(1).optional(),
  limit: transactionLimit.optional(),
  type: transactionType.optional(),
  customer_type: customerType.optional(),
  /** Sent by the published SDK's listTransactions. */
  customer_id: z.string().min(1).optional(),
});
export type ListTransactionsQuery = z.infer<typeof listTransactionsQuery>;
export const listTransactionsResponse = z.object({ transactions: z.array(transactionJson), next_cursor: z.string().nullable() });
