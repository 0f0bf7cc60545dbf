import type { CreatePurchaseUrlBody, OfferConfig, TransactionEntryJson } from "@authsim/sdk/contract";
import { randomBase32, uuid } from "@authsim/sdk/runtime";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { CheckoutSessionRecord } from "../../store/payment-records.ts";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import { assertClientMayManage, assertCustomerExists, type Customer } from "./customers.ts";
import { addQuantityChange, assertItemServes } from "./items.ts";
import { accountOf } from "./payment-accounts.ts";
import { configuredProducts, findItem, findOffer, paymentsFlags } from "./payments-config.ts";
import { activeSubscriptions, INLINE_PRODUCT, ownedProducts, type HeldSubscription } from "./subscriptions.ts";
import { recordTransaction } from "./transactions.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Offers and purchases (spec §7 create-purchase-url; upstream's purchase codes). A purchase URL opens the emulator's
 * own checkout page (emulator/control/payments.ts); completing it, or the admin test-mode call, grants the offer's items and
 * records a "purchase" transaction. Nothing is charged: amounts are only recorded.
 *
 * Error codes: the catalogue has no OFFER_* codes (spec §8's OFFER_DOES_NOT_EXIST / OFFER_CUSTOMER_TYPE_DOES_NOT_MATCH
 * are the older names); the wire, like upstream since the rename, uses PRODUCT_DOES_NOT_EXIST and
 * PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH.
 */

/** Upstream's purchase codes live 24 hours. */
export const CHECKOUT_SESSION_LIFETIME_MILLIS = 24 * 60 * 60 * 1000;

/** Emulator paths outside /api/v1 (emulator/control/routes.ts CONTROL_PREFIX; spelled out here to keep ops free of emulator/control/). */
export const checkoutPath = (fullCode: string) => `/__emulator/purchase/${encodeURIComponent(fullCode)}`;

/** resolveOffer, for a customer: an offer for another customer type is PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH. */
export function resolveOfferFor(
  ctx: OpContext,
  auth: Auth,
  body: Parameters<typeof resolveOffer>[2],
  customer: Customer,
): ReturnType<typeof resolveOffer> {
  const resolved = resolveOffer(ctx, auth, body);
  const { offerId, offer } = resolved;
  if (offer.customer_type !== customer.type) {
    throw knownError("PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", {
      product_id: offerId,
      customer_id: customer.id,
      product_customer_type: offer.customer_type,
      actual_customer_type: customer.type,
    });
  }
  return resolved;
}

/** The offer a purchase names, with upstream's rules for clients (ensureProductIdOrInlineProduct). */
export function resolveOffer(
  ctx: OpContext,
  auth: Auth,
  body: Pick<CreatePurchaseUrlBody, "product_id" | "product_inline"> &
    Partial<Pick<CreatePurchaseUrlBody, "offer_id" | "inline_offer" | "offer_inline">>,
): { offerId: string | null; offer: OfferConfig } {
  const inline = body.inline_offer ?? body.offer_inline ?? body.product_inline;
  const id = body.offer_id ?? body.product_id;
  // Upstream's checks and words (ensureProductIdOrInlineProduct); inline offers are a server-side power (spec §7).
  if (inline && id !== undefined) throw refusal("cannotSpecifyBothProductId");
  if (inline && auth.type === "client") {
    throw refusal("cannotSpecifyProductInlineWhen");
  }
  if (inline) return { offerId: null, offer: inline };
  if (id === undefined) throw refusal("specifyEitherProductIdProduct");
  const offerId = id;
  const offer = findOffer(ctx, auth.project, offerId);
  // A hidden offer does not exist for a client, not even by its id; a server-only one is named as such (upstream).
  if (!offer || (offer.hidden && auth.type === "client")) {
    throw knownError("PRODUCT_DOES_NOT_EXIST", {
      product_id: offerId,
      context: offer === undefined && findItem(ctx, auth.project, offerId) ? "item_exists" : null,
    });
  }
  if (offer.server_only && auth.type === "client")
    throw knownError("PRODUCT_DOES_NOT_EXIST", { product_id: offerId, context: "server_only" });
  return { offerId, offer };
}

/** A non-stackable product is held once per customer (PRODUCT_ALREADY_GRANTED while it is held). */
function assertNotOwned(
  ctx: OpContext,
  projectId: string,
  customer: Customer,
  offerId: string | null,
  offer: OfferConfig,
): void {
  if (offerId === null || offer.stackable) return;
  if ((ownedProducts(ctx, projectId, customer).get(offerId)?.quantity ?? 0) > 0) {
    throw knownError("PRODUCT_ALREADY_GRANTED", { product_id: offerId, customer_id: customer.id });
  }
}

/** Every item the offer grants must exist and serve the customer's type (the catalogue may have changed since). */
function assertGrantable(ctx: OpContext, project: ProjectRecord, offer: OfferConfig, customer: Customer): void {
  for (const itemId of Object.keys(offer.included_items)) {
    const item = findItem(ctx, project, itemId);
    if (!item) throw knownError("ITEM_NOT_FOUND", { item_id: itemId });
    assertItemServes(itemId, item, customer);
  }
}

/** blockNewPurchases in the project's payments config stops every new purchase (NEW_PURCHASES_BLOCKED). */
export function assertPurchasesOpen(ctx: OpContext, project: ProjectRecord): void {
  if (paymentsFlags(ctx, project).blockNewPurchases) throw knownError("NEW_PURCHASES_BLOCKED");
}

export function createPurchaseUrl(ctx: OpContext, auth: Auth, body: CreatePurchaseUrlBody): string {
  const project = auth.project;
  assertPurchasesOpen(ctx, project);
  const customer: Customer = { type: body.customer_type, id: body.customer_id };
  assertClientMayManage(ctx, auth, customer, () => refusal("clientOwnPurchaseUrlsOnly"));
  // A purchase is paid through the project's payments account: none before setup (upstream checks it before the offer).
  if (!accountOf(ctx, project.id)) throw refusal("paymentsNotSetUp");
  const { offerId, offer } = resolveOfferFor(ctx, auth, body, customer);
  assertCustomerExists(ctx, project.id, customer);
  assertGrantable(ctx, project, offer, customer);
  assertNotOwned(ctx, project.id, customer, offerId, offer);
  if (body.return_url !== undefined) assertTrustedCallback(project, body.return_url);
  const session: CheckoutSessionRecord = {
    // Lower case, as the real service's codes are (URLs are matched by /purchase/[a-z0-9-_]+).
    fullCode: `${project.id}_${randomBase32(ctx.random).toLowerCase()}`,
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
  const dashboard = ctx.settings.dashboardUrl?.replace(/\/+$/, "");
  const url = new URL(
    dashboard
      ? `${dashboard}/purchase/${session.fullCode}`
      : `${ctx.settings.apiBaseUrl}${checkoutPath(session.fullCode)}`,
  );
  if (body.return_url !== undefined) url.searchParams.set("return_url", body.return_url);
  return url.toString();
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
export function completeCheckout(
  ctx: OpContext,
  fullCode: string,
  options: CompleteOptions = {},
): CheckoutSessionRecord {
  const session = openCheckoutSession(ctx, fullCode);
  const project = ctx.tables.projects.get(session.projectId);
  if (!project) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  const { offer, offerId } = session;
  const customer: Customer = { type: session.customerType, id: session.customerId };
  const quantity = options.quantity ?? 1;
  const { priceId, conflicting } = validatePurchase(ctx, project, customer, offerId, offer, options.priceId, quantity);
  const price = priceId === null ? undefined : offer.prices[priceId];
  // Each granted quantity is stored as one change, which the real service keeps in a 32-bit Int.
  const largest = Math.max(0, ...Object.values(offer.included_items).map((grant) => grant.quantity));
  if (largest * quantity > 2_147_483_647) throw refusal("quantityGrantsMoreThan2147483647", quantity);
  assertCustomerExists(ctx, project.id, customer);
  assertGrantable(ctx, project, offer, customer);
  cancelSubscriptions(ctx, project.id, customer, conflicting);

  // Test-mode purchases move no money (upstream's TEST_MODE creation source).
  const charged = price && !options.testMode ? { USD: fromCents(toCents(price.USD) * quantity) } : null;
  grantOffer(ctx, project.id, customer, {
    offerId,
    offer,
    priceId,
    quantity,
    charged,
    testMode: options.testMode ?? false,
  });
  const completed = { ...session, completedAtMillis: ctx.now };
  ctx.tables.checkoutSessions.set(fullCode, completed);
  return completed;
}

/**
 * Grants `quantity` of an offer: one "purchase" transaction (the product grant, its items and any money moved) and one
 * quantity change per included item. A price that recurs makes the grant a subscription (domain/ops/payments/subscriptions.ts). Shared
 * by checkouts and the server's direct grant (domain/ops/payments/customer-products.ts).
 */
export function grantOffer(
  ctx: OpContext,
  projectId: string,
  customer: Customer,
  grant: {
    offerId: string | null;
    offer: OfferConfig;
    priceId: string | null;
    quantity: number;
    charged: { USD: string } | null;
    testMode: boolean;
    /** A server's grant names no price on the record (upstream's API grants), though the price decides a subscription. */
    unpriced?: boolean;
    /** Paid through a provider webhook (domain/ops/payments/stripe-webhooks.ts). */
    paymentIntentId?: string;
  },
): { subscriptionId: string | null; transactionId: string } {
  const { offerId, offer, quantity } = grant;
  const price =
    grant.priceId !== null && Object.hasOwn(offer.prices, grant.priceId) ? offer.prices[grant.priceId] : undefined;
  const subscriptionId = price?.interval ? uuid(ctx.random) : null;
  const who = {
    adjusted_transaction_id: null,
    adjusted_entry_index: null,
    customer_type: customer.type,
    customer_id: customer.id,
  };
  // A purchase's transaction has the purchase's id, or the subscription's, as upstream lists them (a refund names it).
  const purchaseId = subscriptionId ? null : uuid(ctx.random);
  const purchase = subscriptionId ? { subscription_id: subscriptionId } : { one_time_purchase_id: purchaseId! };
  const entries: TransactionEntryJson[] = [
    {
      type: "product_grant",
      ...who,
      product_id: offerId,
      product: offer,
      price_id: grant.unpriced ? null : grant.priceId,
      quantity,
      ...purchase,
    },
    ...Object.entries(offer.included_items).map(([itemId, g]): TransactionEntryJson => ({
      type: "item_quantity_change",
      ...who,
      item_id: itemId,
      quantity: g.quantity * quantity,
    })),
  ];
  if (grant.charged)
    entries.push({ type: "money_transfer", ...who, charged_amount: grant.charged, net_amount: grant.charged });
  const transaction = recordTransaction(ctx, projectId, {
    type: "purchase",
    customer,
    entries,
    testMode: grant.testMode,
    offerId,
    id: purchaseId ?? subscriptionId!,
    ...(grant.paymentIntentId === undefined ? {} : { paymentIntentId: grant.paymentIntentId }),
  });
  for (const [itemId, g] of Object.entries(offer.included_items)) {
    addQuantityChange(ctx, projectId, customer, itemId, {
      quantity: g.quantity * quantity,
      expiresAtMillis: null,
      description: `Purchase of ${offerId ?? offer.display_name}`,
      transactionId: transaction.id,
    });
  }
  return { subscriptionId, transactionId: transaction.id };
}

/**
 * Records the end of subscriptions. By default their products stay held until the paid period ends
 * (domain/ops/payments/subscriptions.ts); with `endsAtMillis` they end at that instant instead (a grant that replaces a plan ends the
 * old one at once; the provider may report an end), and so do the items their purchase granted "when-purchase-expires".
 */
export function cancelSubscriptions(
  ctx: OpContext,
  projectId: string,
  customer: Customer,
  subscriptions: readonly HeldSubscription[],
  endsAtMillis?: number,
): void {
  for (const s of subscriptions) {
    const who = {
      adjusted_transaction_id: null,
      adjusted_entry_index: null,
      customer_type: customer.type,
      customer_id: customer.id,
    };
    recordTransaction(ctx, projectId, {
      type: "subscription-cancellation",
      customer,
      entries: [
        {
          type: "product_grant",
          ...who,
          product_id: s.productId === INLINE_PRODUCT ? null : s.productId,
          product: s.offer,
          price_id: null,
          quantity: 0,
          subscription_id: s.id,
        },
      ],
      offerId: s.productId === INLINE_PRODUCT ? null : s.productId,
      ...(endsAtMillis === undefined ? {} : { endedAtMillis: endsAtMillis }),
    });
    if (endsAtMillis !== undefined) expireGrantedItems(ctx, projectId, s, endsAtMillis);
  }
}

/** The item changes the subscription's purchase made for items that expire with it stop counting at `at`. */
function expireGrantedItems(ctx: OpContext, projectId: string, s: HeldSubscription, at: number): void {
  const expiring = new Set(
    Object.entries(s.offer.included_items)
      .filter(([, g]) => g.expires !== "never")
      .map(([id]) => id),
  );
  if (expiring.size === 0) return;
  const purchase = [...ctx.tables.paymentTransactions.values()].find(
    (t) =>
      t.projectId === projectId &&
      t.type === "purchase" &&
      t.entries.some((e) => e.type === "product_grant" && e.subscription_id === s.id),
  );
  if (!purchase) return;
  for (const change of ctx.tables.itemQuantityChanges.values()) {
    if (change.transactionId !== purchase.id || !expiring.has(change.itemId)) continue;
    if (change.expiresAtMillis === null || change.expiresAtMillis > at)
      ctx.tables.itemQuantityChanges.set(change.id, { ...change, expiresAtMillis: at });
  }
}

/**
 * Upstream's checks before any grant (validatePurchaseSession), in its order: the price, the quantity of a
 * non-stackable product, a product already held, an add-on's base, and another product of the same product line (an
 * active subscription there is replaced; a one-time purchase blocks). Answers the price and what to cancel.
 */
export function validatePurchase(
  ctx: OpContext,
  project: ProjectRecord,
  customer: Customer,
  offerId: string | null,
  offer: OfferConfig,
  priceId: string | undefined,
  quantity: number,
): { priceId: string | null; conflicting: HeldSubscription[] } {
  let selected: string | null = Object.keys(offer.prices)[0] ?? null;
  if (priceId !== undefined) {
    if (!Object.hasOwn(offer.prices, priceId)) throw refusal("priceFoundProductAssociatedPurchase");
    selected = priceId;
  }
  if (quantity !== 1 && !offer.stackable) throw refusal("productStackableQuantity1");
  const owned = ownedProducts(ctx, project.id, customer);
  const holds = (id: string) => (owned.get(id)?.quantity ?? 0) > 0;
  if (offerId !== null && !offer.stackable && holds(offerId))
    throw knownError("PRODUCT_ALREADY_GRANTED", { product_id: offerId, customer_id: customer.id });
  const configured = offerId === null ? undefined : configuredProducts(ctx, project).find((p) => p.id === offerId);
  const bases = configured && configured.isAddOnTo !== false ? Object.keys(configured.isAddOnTo) : [];
  if (bases.length > 0 && !bases.some(holds)) throw refusal("productAddProductThatCustomer");
  const line = configured?.productLineId ?? null;
  if (line === null) return { priceId: selected, conflicting: [] };
  const lineOf = new Map(configuredProducts(ctx, project).map((p) => [p.id, p.productLineId]));
  const inLine = (id: string) => lineOf.get(id) === line && !bases.includes(id);
  if (![...owned.entries()].some(([id, held]) => held.quantity > 0 && inLine(id)))
    return { priceId: selected, conflicting: [] };
  const conflicting = activeSubscriptions(ctx, project.id, customer).filter((s) => inLine(s.productId));
  if (conflicting.length === 0) throw refusal("customerAlreadyOneTimePurchase");
  return { priceId: selected, conflicting };
}

/** POST /internal/payments/test-mode-purchase-session: the admin completes a code of its own project without paying. */
export function testModePurchase(
  ctx: OpContext,
  auth: Auth,
  body: { full_code: string; price_id: string; quantity?: number | undefined },
): void {
  const session = openCheckoutSession(ctx, body.full_code);
  if (session.projectId !== auth.project.id) throw refusal("tenancyIdDoesMatchValue");
  assertPurchasesOpen(ctx, auth.project);
  if (!paymentsFlags(ctx, auth.project).testMode) throw refusal("testModeEnabledProject");
  completeCheckout(ctx, body.full_code, {
    priceId: body.price_id,
    ...(body.quantity === undefined ? {} : { quantity: body.quantity }),
    testMode: true,
  });
}
