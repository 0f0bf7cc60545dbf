import type { CreatePurchaseUrlBody, OfferConfig, TransactionEntryJson } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import type { Auth } from "../auth/parse-auth.ts";
import { knownError, StatusError } from "../http/known-error.ts";
import type { CheckoutSessionRecord } from "../store/payment-records.ts";
import type { ProjectRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";
import { assertTrustedCallback } from "./callback-urls.ts";
import { assertCustomerExists, assertMayActFor, type Customer } from "./customers.ts";
import { addQuantityChange, assertItemServes } from "./items.ts";
import { findItem, findOffer } from "./payments-config.ts";
import { recordTransaction } from "./transactions.ts";

/**
 * Offers and purchases (spec §7 create-purchase-url; upstream's purchase codes). A purchase URL opens the emulator's
 * own checkout page (control/payments.ts); completing it, or the admin test-mode call, grants the offer's items and
 * records a "purchase" transaction. Nothing is charged: amounts are only recorded.
 *
 * Error codes: the catalogue has no OFFER_* codes (spec §8's OFFER_DOES_NOT_EXIST / OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH
 * are the older names); the wire, like upstream since the rename, uses PRODUCT_DOES_NOT_EXIST and
 * PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH.
 */

/** Upstream's purchase codes live 24 hours. */
export const CHECKOUT_SESSION_LIFETIME_MILLIS = 24 * 60 * 60 * 1000;

/** Emulator paths outside /api/v1 (control/routes.ts CONTROL_PREFIX; spelled out here to keep ops free of control/). */
export const checkoutPath = (fullCode: string) => `/__emulator/checkout/${encodeURIComponent(fullCode)}`;

/** The offer a purchase names, with upstream's rules for clients (ensureProductIdOrInlineProduct). */
function resolveOffer(auth: Auth, body: CreatePurchaseUrlBody): { offerId: string | null; offer: OfferConfig } {
  const inline = body.inline_offer ?? body.product_inline;
  if (inline) {
    // Inline offers are a server-side power (spec §7: "inline_offer (server only)").
    if (auth.type === "client") throw knownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: "client", allowed_access_types: ["server", "admin"] });
    return { offerId: null, offer: inline };
  }
  const offerId = (body.offer_id ?? body.product_id)!;
  const offer = findOffer(auth.project, offerId);
  // A hidden offer does not exist for a client, not even by its id; a server-only one is named as such (upstream).
  if (!offer || (offer.hidden && auth.type === "client")) {
    throw knownError("PRODUCT_DOES_NOT_EXIST", { product_id: offerId, context: offer === undefined && findItem(auth.project, offerId) ? "item_exists" : null });
  }
  if (offer.server_only && auth.type === "client") throw knownError("PRODUCT_DOES_NOT_EXIST", { product_id: offerId, context: "server_only" });
  return { offerId, offer };
}

/** A non-stackable offer is bought once per customer (PRODUCT_ALREADY_GRANTED). */
function assertNotOwned(ctx: OpContext, projectId: string, customer: Customer, offerId: string | null, offer: OfferConfig): void {
  if (offerId === null || offer.stackable) return;
  for (const t of ctx.tables.paymentTransactions.values()) {
    if (t.projectId === projectId && t.type === "purchase" && t.offerId === offerId && t.customerType === customer.type && t.customerId === customer.id) {
      throw knownError("PRODUCT_ALREADY_GRANTED", { product_id: offerId, customer_id: customer.id });
    }
  }
}

/** Every item the offer grants must exist and serve the customer's type (the catalogue may have changed since). */
function assertGrantable(project: ProjectRecord, offer: OfferConfig, customer: Customer): void {
  for (const itemId of Object.keys(offer.included_items)) {
    const item = findItem(project, itemId);
    if (!item) throw knownError("ITEM_NOT_FOUND", { item_id: itemId });
    assertItemServes(itemId, item, customer);
  }
}

export function createPurchaseUrl(ctx: OpContext, auth: Auth, body: CreatePurchaseUrlBody): string {
  const project = auth.project;
  const customer: Customer = { type: body.customer_type, id: body.customer_id };
  assertMayActFor(ctx, auth, customer);
  const { offerId, offer } = resolveOffer(auth, body);
  if (offer.customer_type !== customer.type) {
    throw knownError("PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", {
      product_id: offerId,
      customer_id: customer.id,
      product_customer_type: offer.customer_type,
      actual_customer_type: customer.type,
    });
  }
  assertCustomerExists(ctx, project.id, customer);
  assertGrantable(project, offer, customer);
  assertNotOwned(ctx, project.id, customer, offerId, offer);
  if (body.return_url !== undefined) assertTrustedCallback(project, body.return_url);
  const session: CheckoutSessionRecord = {
    fullCode: `${project.id}_${randomBase32(ctx.random)}`,
    projectId: project.id,
    customerType: customer.type,
    customerId: customer.id,
    offerId,
    offer,
    returnUrl: body.return_url ?? null,
    createdAtMillis: ctx.now,
    expiresAtMillis: ctx.now + CHECKOUT_SESSION_LIFETIME_MILLIS,
    completedAtMillis: null,
  };
  ctx.tables.checkoutSessions.set(session.fullCode, session);
  return `${ctx.settings.apiBaseUrl}${checkoutPath(session.fullCode)}`;
}

/** A purchase code as upstream's verification-code handler judges it: unknown, expired, or already used. */
export function openCheckoutSession(ctx: OpContext, fullCode: string): CheckoutSessionRecord {
  const session = ctx.tables.checkoutSessions.get(fullCode);
  if (!session) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  if (session.completedAtMillis !== null) throw knownError("VERIFICATION_CODE_ALREADY_USED");
  if (ctx.now >= session.expiresAtMillis) throw knownError("VERIFICATION_CODE_EXPIRED");
  return session;
}

const toCents = (usd: string): number => {
  const [whole, fraction = ""] = usd.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
};
const fromCents = (cents: number): string => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

export interface CompleteOptions {
  /** Defaults to the offer's first price; an offer without prices is free. */
  priceId?: string;
  quantity?: number;
  testMode?: boolean;
}

/** Completes a checkout: grants quantity × each included item and records the purchase (spec §7). */
export function completeCheckout(ctx: OpContext, fullCode: string, options: CompleteOptions = {}): CheckoutSessionRecord {
  const session = openCheckoutSession(ctx, fullCode);
  const project = ctx.tables.projects.get(session.projectId);
  if (!project) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  const { offer, offerId } = session;
  const customer: Customer = { type: session.customerType, id: session.customerId };
  const priceId = options.priceId ?? Object.keys(offer.prices)[0] ?? null;
  const price = priceId === null ? undefined : Object.hasOwn(offer.prices, priceId) ? offer.prices[priceId] : undefined;
  if (priceId !== null && !price) throw new StatusError(400, "Price not found on offer associated with this purchase code");
  const quantity = options.quantity ?? 1;
  if (quantity !== 1 && !offer.stackable) throw new StatusError(400, "This offer is not stackable; quantity must be 1");
  // Each granted quantity is stored as one change, which the real service keeps in a 32-bit Int.
  const largest = Math.max(0, ...Object.values(offer.included_items).map((grant) => grant.quantity));
  if (largest * quantity > 2_147_483_647) throw new StatusError(400, `quantity ${quantity} grants more than 2147483647 of an included item`);
  assertCustomerExists(ctx, project.id, customer);
  assertGrantable(project, offer, customer);
  assertNotOwned(ctx, project.id, customer, offerId, offer);

  const who = { adjusted_transaction_id: null, adjusted_entry_index: null, customer_type: customer.type, customer_id: customer.id };
  const entries: TransactionEntryJson[] = [
    { type: "product_grant", ...who, product_id: offerId, product: offer, price_id: priceId, quantity, one_time_purchase_id: session.fullCode },
    ...Object.entries(offer.included_items).map(([itemId, grant]): TransactionEntryJson => ({ type: "item_quantity_change", ...who, item_id: itemId, quantity: grant.quantity * quantity })),
  ];
  // Test-mode purchases move no money (upstream's TEST_MODE creation source).
  if (price && !options.testMode) {
    const amount = { USD: fromCents(toCents(price.USD) * quantity) };
    entries.push({ type: "money_transfer", ...who, charged_amount: amount, net_amount: amount });
  }
  const transaction = recordTransaction(ctx, project.id, { type: "purchase", customer, entries, testMode: options.testMode ?? false, offerId });
  for (const [itemId, grant] of Object.entries(offer.included_items)) {
    addQuantityChange(ctx, project.id, customer, itemId, {
      quantity: grant.quantity * quantity,
      expiresAtMillis: null,
      description: `Purchase of ${offerId ?? offer.display_name}`,
      transactionId: transaction.id,
    });
  }
  const completed = { ...session, completedAtMillis: ctx.now };
  ctx.tables.checkoutSessions.set(fullCode, completed);
  return completed;
}

/** POST /internal/payments/test-mode-purchase-session: the admin completes a code of its own project without paying. */
export function testModePurchase(ctx: OpContext, auth: Auth, body: { full_code: string; price_id: string; quantity?: number | undefined }): void {
  const session = openCheckoutSession(ctx, body.full_code);
  if (session.projectId !== auth.project.id) throw new StatusError(400, "Tenancy id does not match value from code data");
  completeCheckout(ctx, body.full_code, { priceId: body.price_id, ...(body.quantity === undefined ? {} : { quantity: body.quantity }), testMode: true });
}
