import type {
  CustomerParams,
  CustomerProductParams,
  CustomerProductJson,
  CustomerProductsQuery,
  GrantProductBody,
  InlineProductJson,
} from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { OpContext } from "../context.ts";
import { assertClientMayManage, assertCustomerExists, type Customer } from "./customers.ts";
import { requireTeamPermission } from "../teams/permission-grants.ts";
import { configuredProducts, type ConfiguredProduct } from "./payments-config.ts";
import { cancelSubscriptions, grantOffer, resolveOfferFor, validatePurchase } from "./purchases.ts";
import { activeSubscriptions, INLINE_PRODUCT, ownedProducts } from "./subscriptions.ts";
import { inlineProductView } from "../../views/payments.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * What a customer holds, as the published kits' account settings read it (upstream's /payments/products routes; the
 * billing route is payment-methods.ts), and the server's direct grant. Ownership is the sum of the product grants of the
 * customer's purchase transactions (checkouts and grants alike); nothing here talks to a payment provider.
 */

export { inlineProductView };

/** Plans of the same product line the customer could switch to: recurring, not add-ons, visible to the caller. */
function switchOptions(
  products: ConfiguredProduct[],
  auth: Auth,
  customer: Customer,
  productId: string,
): CustomerProductJson["switch_options"] {
  const current = products.find((p) => p.id === productId);
  if (!current?.productLineId) return undefined;
  return products
    .filter(
      (p) =>
        p.id !== productId &&
        p.productLineId === current.productLineId &&
        p.customerType === customer.type &&
        !(auth.type === "client" && p.serverOnly),
    )
    .filter(
      (p) => !p.includeByDefault && p.isAddOnTo === false && Object.values(p.prices).some((price) => price.interval),
    )
    .map((p) => {
      const prices = Object.fromEntries(
        Object.entries(p.prices)
          .filter(([, price]) => price.interval)
          .map(([id, price]) => [
            id,
            { ...price.amounts, interval: price.interval, ...(price.freeTrial ? { free_trial: price.freeTrial } : {}) },
          ]),
      );
      return {
        product_id: p.id,
        product: {
          display_name: p.displayName,
          customer_type: p.customerType,
          stackable: p.stackable,
          server_only: p.serverOnly,
          prices,
          included_items: structuredClone(p.includedItems),
          client_metadata: null,
          client_read_only_metadata: null,
          server_metadata: null,
        } as InlineProductJson,
      };
    });
}

/** GET /payments/products/{type}/{id}: the products held, by id, paginated by product id (upstream's cursor). */
export function listCustomerProducts(
  ctx: OpContext,
  auth: Auth,
  params: CustomerParams,
  query: CustomerProductsQuery,
): { items: CustomerProductJson[]; nextCursor: string | null } {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertClientMayManage(ctx, auth, customer, () => refusal("clientOwnProductsOnly"));
  assertCustomerExists(ctx, auth.project.id, customer);
  const products = configuredProducts(ctx, auth.project);
  const subscriptions = activeSubscriptions(ctx, auth.project.id, customer);
  const entries = [...ownedProducts(ctx, auth.project.id, customer).entries()]
    .filter(([, held]) => held.quantity > 0 && !(auth.type === "client" && held.offer.server_only))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, held]): [string, CustomerProductJson] => {
      const options = id === INLINE_PRODUCT ? undefined : switchOptions(products, auth, customer, id);
      const active = subscriptions.find((sub) => sub.productId === id);
      const subscription = active
        ? {
            subscription_id: active.id,
            current_period_end: new Date(active.periodEndMillis).toISOString(),
            cancel_at_period_end: false,
            is_cancelable: true,
          }
        : null;
      return [
        id,
        {
          id: id === INLINE_PRODUCT ? null : id,
          quantity: held.quantity,
          product: inlineProductView(held.offer),
          type: active ? "subscription" : "one_time",
          subscription,
          ...(options ? { switch_options: options } : {}),
        },
      ];
    });
  let start = 0;
  if (query.cursor !== undefined) {
    start = entries.findIndex(([id]) => id === query.cursor);
    if (start === -1) throw refusal("invalidCursor");
  }
  const limit = query.limit ?? 10;
  const page = entries.slice(start, start + limit);
  return {
    items: page.map(([, item]) => item),
    nextCursor: start + limit < entries.length ? entries[start + limit]![0] : null,
  };
}

/** POST /payments/products/{type}/{id} (server): grants a configured or inline product with no checkout and no charge. */
export function grantProduct(
  ctx: OpContext,
  auth: Auth,
  params: CustomerParams,
  body: GrantProductBody,
): { subscriptionId: string | null } {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertCustomerExists(ctx, auth.project.id, customer);
  const { offerId, offer } = resolveOfferFor(ctx, auth, body, customer);
  const { priceId, conflicting } = validatePurchase(
    ctx,
    auth.project,
    customer,
    offerId,
    offer,
    undefined,
    body.quantity,
  );
  // A direct grant replaces a plan of the same product line at once (upstream ends the old subscription now).
  cancelSubscriptions(ctx, auth.project.id, customer, conflicting, ctx.now);
  const { subscriptionId } = grantOffer(ctx, auth.project.id, customer, {
    offerId,
    offer,
    priceId,
    quantity: body.quantity,
    charged: null,
    testMode: false,
    unpriced: true,
  });
  return { subscriptionId };
}

/**
 * DELETE /payments/products/{type}/{id}/{product_id}: cancels the customer's active subscriptions of the product (or
 * the one `subscription_id` names, for inline products); the product stays held until the paid period ends.
 */
export function cancelProduct(
  ctx: OpContext,
  auth: Auth,
  params: CustomerProductParams,
  subscriptionId: string | undefined,
): void {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  if (auth.type === "client") {
    if (!auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
    if (customer.type === "user" && customer.id !== auth.user.id) throw refusal("clientsCanOnlyCancelTheir");
    if (customer.type === "team") requireTeamPermission(ctx, auth.project.id, customer.id, auth.user.id, "team_admin");
    if (customer.type === "custom") throw refusal("clientsCanOnlyCancelUser");
  }
  assertCustomerExists(ctx, auth.project.id, customer);
  const active = activeSubscriptions(ctx, auth.project.id, customer);
  let cancelled;
  if (subscriptionId !== undefined) {
    cancelled = active.filter((s) => s.id === subscriptionId);
    if (cancelled.length === 0) throw refusal("noActiveSubscriptionFoundId");
  } else {
    resolveOfferFor(ctx, auth, { product_id: params.product_id }, customer);
    if ((ownedProducts(ctx, auth.project.id, customer).get(params.product_id)?.quantity ?? 0) <= 0)
      throw refusal("customerLacksProduct");
    cancelled = active.filter((s) => s.productId === params.product_id);
    if (cancelled.length === 0) throw refusal("productOneTimePurchaseCannot");
  }
  cancelSubscriptions(ctx, auth.project.id, customer, cancelled);
}
