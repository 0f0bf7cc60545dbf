import { z } from "zod";
import { int32, queryBoolean } from "./common.ts";

/**
 * Payments (spec §3 "Item", §4 "Item quantity", §7; protocol.md §5.13): items held by customers, offers (the published
 * SDK calls them products) that grant items when bought, purchase URLs, the payment-provider account, a customer's
 * billing and products. The transactions' schemas are in payments-transactions.ts, the area's operations in
 * payments-operations.ts.
 */

/** A customer is a user, a team, or an id the project makes up itself ("custom"). */
export const customerTypes = ["user", "team", "custom"] as const;
export const customerType = z.enum(customerTypes);
export type CustomerType = z.infer<typeof customerType>;

/** Ids of items, offers and prices: they appear in URL paths, so no slashes or spaces. */
export const catalogueId = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, "must be 1-64 letters, digits, '_', '.' or '-'");

// ---- Items ----

/** Ids in paths are plain strings (as upstream's): an id the catalogue lacks is ITEM_NOT_FOUND, not a schema error. */
const pathId = z.string().min(1).max(256);
export const itemParams = z.strictObject({ customer_type: customerType, customer_id: pathId, item_id: pathId });
export type ItemParams = z.infer<typeof itemParams>;

/** GET /payments/items/{type}/{id}/{item}: the quantity may be negative (spec §3). */
export const itemJson = z.object({ id: z.string(), display_name: z.string(), quantity: z.number().int() });
export type ItemJson = z.infer<typeof itemJson>;

/** `allow_negative` is required, `true` or `false` (upstream's query schema; the SDK sends false by default, spec §9). */
export const updateItemQuantityQuery = z.strictObject({ allow_negative: queryBoolean });
/**
 * Upstream's body schema: delta any integer, description any text, expires_at any string, an empty one meaning no
 * expiry. The emulator keeps delta to 32 bits (upstream's column: a larger one fails its write with a 500) and
 * expires_at to what Date parses (an unparseable one fails upstream's write likewise).
 */
export const updateItemQuantityBody = z.strictObject({
  delta: int32,
  expires_at: z
    .string()
    .refine((s) => s === "" || !Number.isNaN(Date.parse(s)), "must be a date")
    .optional(),
  description: z.string().optional(),
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
  /** An inline product's metadata, answered as given wherever the product is (upstream's inline product fields). */
  client_metadata: z.unknown().optional(),
  client_read_only_metadata: z.unknown().optional(),
  server_metadata: z.unknown().optional(),
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
 * sends `product_id` / `product_inline` for the same thing, so both spellings are accepted. Naming none, or an id and
 * an inline product both, is refused by the operation with upstream's plain-text 400s (ops/payments/purchases.ts).
 */
export const createPurchaseUrlBody = z.strictObject({
  customer_type: customerType,
  customer_id: z.string().min(1),
  offer_id: pathId.optional(),
  inline_offer: offerConfig.optional(),
  /** The real service's older alias of product_inline (its API versions before the offer → product rename). */
  offer_inline: offerConfig.optional(),
  product_id: pathId.optional(),
  product_inline: offerConfig.optional(),
  return_url: z.string().url().optional(),
});
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

// ---- A customer's billing and products (what the published kits' account settings read) ----

/** GET /payments/billing/{type}/{id}: users and teams only (upstream's route refuses custom customers). */
export const billingParams = z.strictObject({ customer_type: z.enum(["user", "team"]), customer_id: pathId });
export const paymentMethodSummary = z.object({
  id: z.string(),
  brand: z.string().nullable(),
  last4: z.string().nullable(),
  exp_month: z.number().int().nullable(),
  exp_year: z.number().int().nullable(),
});
export const billingResponse = z.object({
  has_customer: z.boolean(),
  default_payment_method: paymentMethodSummary.nullable(),
});
export type BillingJson = z.infer<typeof billingResponse>;

/** POST /payments/payment-method/{type}/{id}/setup-intent: the provider's setup intent for a new default card. */
/** The body is optional and empty (upstream defaults it to `{}`). */
export const setupIntentBody = z.union([z.undefined(), z.strictObject({})]);
export const setupIntentResponse = z.object({ client_secret: z.string(), stripe_account_id: z.string() });
export type SetupIntentJson = z.infer<typeof setupIntentResponse>;

/**
 * POST /payments/payment-method/{type}/{id}/set-default: the card a confirmed setup intent saved becomes the customer's
 * default; the answer is the default card as GET /payments/billing then reports it.
 */
export const setDefaultPaymentMethodBody = z.strictObject({ setup_intent_id: z.string() });
export type SetDefaultPaymentMethodBody = z.infer<typeof setDefaultPaymentMethodBody>;
export const setDefaultPaymentMethodResponse = z.object({
  success: z.literal(true),
  default_payment_method: paymentMethodSummary.nullable(),
});
export type SetDefaultPaymentMethodJson = z.infer<typeof setDefaultPaymentMethodResponse>;
export type PaymentMethodSummaryJson = z.infer<typeof paymentMethodSummary>;

/** GET /payments/invoices/{type}/{id}: the invoices of the customer's subscriptions, newest first. */
export const invoicesQuery = z.strictObject({
  cursor: z.string().optional(),
  /** Read as a string like upstream; 1..100, default 10. */
  limit: z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(100))
    .optional(),
});
export type InvoicesQuery = z.infer<typeof invoicesQuery>;
export const invoiceStatus = z.enum(["draft", "open", "paid", "uncollectible", "void"]);
export const invoiceJson = z.object({
  created_at_millis: z.number(),
  status: invoiceStatus.nullable(),
  amount_total: z.number(),
  hosted_invoice_url: z.string().nullable(),
});
export type InvoiceJson = z.infer<typeof invoiceJson>;
export const invoicesResponse = z.object({
  items: z.array(invoiceJson),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});

export const customerParams = z.strictObject({ customer_type: customerType, customer_id: pathId });
export type CustomerParams = z.infer<typeof customerParams>;

/** Upstream reads `limit` as a string, 1..100, default 10; `cursor` is a product id of the list. */
export const customerProductsQuery = z.strictObject({
  cursor: z.string().optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(1).max(100))
    .optional(),
});
export type CustomerProductsQuery = z.infer<typeof customerProductsQuery>;

const dayInterval = z.tuple([z.number().int().positive(), z.enum(["day", "week", "month", "year"])]);

/** A product as the customer-facing routes answer it (upstream's inline product shape, snake case). */
export const inlineProductJson = z.object({
  display_name: z.string(),
  customer_type: customerType,
  stackable: z.boolean(),
  server_only: z.boolean(),
  free_trial: dayInterval.optional(),
  prices: z.record(
    z.string(),
    z.object({ interval: dayInterval.optional(), free_trial: dayInterval.optional() }).catchall(z.unknown()),
  ),
  included_items: z.record(
    z.string(),
    z.object({ quantity: z.number(), repeat: z.unknown().optional(), expires: z.string().optional() }),
  ),
  client_metadata: z.unknown().nullable(),
  client_read_only_metadata: z.unknown().nullable(),
  server_metadata: z.unknown().nullable(),
});
export type InlineProductJson = z.infer<typeof inlineProductJson>;

export const customerProductJson = z.object({
  id: z.string().nullable(),
  quantity: z.number().int(),
  product: inlineProductJson,
  type: z.enum(["one_time", "subscription"]).optional(),
  subscription: z
    .object({
      subscription_id: z.string().nullable(),
      current_period_end: z.string().nullable(),
      cancel_at_period_end: z.boolean(),
      is_cancelable: z.boolean(),
    })
    .nullable()
    .optional(),
  switch_options: z.array(z.object({ product_id: z.string(), product: inlineProductJson })).optional(),
});
export type CustomerProductJson = z.infer<typeof customerProductJson>;
export const customerProductsResponse = z.object({
  items: z.array(customerProductJson),
  is_paginated: z.literal(true),
  pagination: z.object({ next_cursor: z.string().nullable() }),
});

/** POST /payments/products/{type}/{id}: a server grants a product (by id, or inline) without a checkout. */
export const grantProductBody = z.strictObject({
  product_id: pathId.optional(),
  product_inline: offerConfig.optional(),
  quantity: z.number().int().min(1).default(1),
});
export type GrantProductBody = z.infer<typeof grantProductBody>;
export const grantProductResponse = z.object({ success: z.literal(true), subscription_id: z.string().optional() });

/** DELETE /payments/products/{type}/{id}/{product_id}: cancels the customer's subscriptions of the product. */
export const customerProductParams = customerParams.extend({ product_id: pathId });
export type CustomerProductParams = z.infer<typeof customerProductParams>;
export const cancelProductQuery = z.strictObject({ subscription_id: z.string().optional() });
export const cancelProductResponse = z.object({ success: z.literal(true) });

// ---- Purchase codes (the checkout page's calls; no authentication, the code is the credential) ----

export const validatePurchaseCodeBody = z.strictObject({
  full_code: z.string().min(1),
  return_url: z.string().url().optional(),
});
export const validatePurchaseCodeQuery = validatePurchaseCodeBody;
export const validatePurchaseCodeResponse = z.object({
  product: inlineProductJson,
  stripe_account_id: z.string(),
  project_id: z.string(),
  project_logo_url: z.string().nullable(),
  already_bought_non_stackable: z.boolean(),
  conflicting_products: z.array(z.object({ product_id: z.string(), display_name: z.string() })),
  test_mode: z.boolean(),
  charges_enabled: z.boolean(),
});
export type ValidatePurchaseCodeJson = z.infer<typeof validatePurchaseCodeResponse>;
export const purchaseCodeCheckResponse = z.object({ valid: z.boolean() });

export const purchaseSessionBody = z.strictObject({
  full_code: z.string().min(1),
  price_id: z.string().min(1),
  quantity: z.number().int().min(1).default(1),
});
export type PurchaseSessionBody = z.infer<typeof purchaseSessionBody>;
export const purchaseSessionResponse = z.object({ client_secret: z.string() });

// ---- Refunds (admin) ----

/** Upstream's money amounts: digits, optionally a fraction, never a sign (moneyAmountSchema). */
export const moneyAmount = z.string().refine((s) => /^\d+(\.\d+)?$/.test(s), {
  message: "Money amount must be in the format of <number> or <number>.<number>",
  params: { bare: true },
});

/**
 * POST /internal/payments/transactions/refund. Entry indexes and quantities are checked by the operation (with
 * upstream's SCHEMA_ERROR messages), so only their JSON types are checked here.
 */
export const refundTransactionBody = z.strictObject({
  type: z.enum(["subscription", "one-time-purchase"]),
  id: z.string(),
  refund_entries: z.array(
    z.strictObject({ entry_index: z.number().int(), quantity: z.number().int(), amount_usd: moneyAmount }),
  ),
});
export type RefundTransactionBody = z.infer<typeof refundTransactionBody>;

// ---- Payment-provider webhooks ----

/**
 * POST /integrations/stripe/webhooks: an event signed as the provider signs them (`stripe-signature: t=…,v1=…`, an
 * HMAC-SHA256 of `t.body` with the webhook secret). The body is any JSON; the operation reads the event from it.
 */
export const stripeWebhookBody = z.unknown();
export const stripeWebhookResponse = z.object({ received: z.literal(true) });

// ---- Plan switch ----

/** POST /payments/products/{type}/{id}/switch: users and teams only (upstream's route). */
export const switchPlanParams = z.strictObject({ customer_type: z.enum(["user", "team"]), customer_id: pathId });
export type SwitchPlanParams = z.infer<typeof switchPlanParams>;
export const switchPlanBody = z.strictObject({
  from_product_id: z.string(),
  to_product_id: z.string(),
  price_id: z.string().optional(),
  quantity: z.number().int().min(1).optional(),
});
export type SwitchPlanBody = z.infer<typeof switchPlanBody>;
