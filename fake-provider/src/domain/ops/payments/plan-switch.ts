import type { SwitchPlanBody, SwitchPlanParams } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { OpContext } from "../context.ts";
import { assertClientMayManage, assertCustomerExists, type Customer } from "./customers.ts";
import { accountOf } from "./payment-accounts.ts";
import { configuredProducts, offerOf, paymentsFlags } from "./payments-config.ts";
import { cancelSubscriptions, grantOffer } from "./purchases.ts";
import { centsOf, moneyOf } from "./refunds.ts";
import { activeSubscriptions, INLINE_PRODUCT, ownedProducts } from "./subscriptions.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * POST /payments/products/{type}/{id}/switch (upstream's plan switch): a customer moves its subscription to another
 * recurring plan of the same product line, paid with the card on file. Upstream's checks and words, in its order.
 *
 * Which subscriptions can be switched: those the provider bills, i.e. bought and paid through checkout. A server's
 * grant or a test-mode purchase has no provider subscription, which upstream answers "This subscription cannot be
 * switched." Switching from an include-by-default plan starts a paid subscription. The card on file is the provider
 * account's (domain/ops/payments/payment-methods.ts billingOf): none before payments are set up (DEFAULT_PAYMENT_METHOD_REQUIRED).
 */
export function switchPlan(ctx: OpContext, auth: Auth, params: SwitchPlanParams, body: SwitchPlanBody): void {
  const project = auth.project;
  if (paymentsFlags(ctx, project).blockNewPurchases) throw knownError("NEW_PURCHASES_BLOCKED");
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertClientMayManage(ctx, auth, customer, () => refusal("clientOwnSubscriptionsOnly"));

  const products = configuredProducts(ctx, project);
  const from = products.find((p) => p.id === body.from_product_id);
  const to = products.find((p) => p.id === body.to_product_id);
  if (!from || !to) throw refusal("switchProductNotFound");
  if (from.customerType !== customer.type || to.customerType !== customer.type)
    throw refusal("productCustomerTypeDoesMatch");
  if (!from.productLineId || from.productLineId !== to.productLineId) throw refusal("productsSameProductLineSwitch");
  if (from.id === to.id) throw refusal("productAlreadyActive");
  if (to.isAddOnTo !== false && Object.keys(to.isAddOnTo).length > 0) throw refusal("addProductsCannotSelectedPlan");
  if (to.includeByDefault) throw refusal("includeByDefaultProductsCannot");
  if (!from.includeByDefault && !Object.values(from.prices).some((p) => p.interval))
    throw refusal("subscriptionCannotSwitched");
  assertCustomerExists(ctx, project.id, customer);

  // A one-time purchase in the product line cannot be replaced; the subscriptions of the line are what is switched.
  const active = activeSubscriptions(ctx, project.id, customer);
  const subscribed = new Set(active.map((s) => s.productId));
  const lineOf = new Map(products.map((p) => [p.id, p.productLineId]));
  for (const [productId, held] of ownedProducts(ctx, project.id, customer)) {
    if (
      productId !== INLINE_PRODUCT &&
      held.quantity > 0 &&
      lineOf.get(productId) === from.productLineId &&
      !subscribed.has(productId)
    ) {
      throw refusal("customerAlreadyOneTimePurchase");
    }
  }
  const existing = from.includeByDefault ? undefined : active.find((s) => s.productId === from.id);
  if (!from.includeByDefault && (!existing || !providerBilled(ctx, project.id, existing.id)))
    throw refusal("subscriptionCannotSwitched");

  const recurring = Object.entries(to.prices).filter(([, p]) => p.interval);
  if (recurring.length === 0) throw refusal("priceFoundTargetProduct");
  const priceId = body.price_id ?? recurring[0]![0];
  const price = recurring.find(([id]) => id === priceId)?.[1];
  if (!price) throw refusal("priceFoundTargetProduct");
  if (price.amounts.USD === undefined) throw refusal("targetPriceIncludeUsdAmount");
  const quantity = body.quantity ?? existing?.quantity ?? 1;
  if (body.quantity !== undefined && quantity !== 1 && !to.stackable) throw refusal("productStackableQuantity1");
  if (!accountOf(ctx, project.id))
    throw knownError("DEFAULT_PAYMENT_METHOD_REQUIRED", { customer_type: customer.type, customer_id: customer.id });

  if (existing) cancelSubscriptions(ctx, project.id, customer, [existing]);
  grantOffer(ctx, project.id, customer, {
    offerId: to.id,
    offer: offerOf(to),
    priceId,
    quantity,
    charged: { USD: moneyOf(centsOf(price.amounts.USD) * quantity) },
    testMode: false,
  });
}

/** A subscription the emulated provider bills: its purchase moved money outside test mode. */
function providerBilled(ctx: OpContext, projectId: string, subscriptionId: string): boolean {
  for (const t of ctx.tables.paymentTransactions.values()) {
    if (t.projectId !== projectId || t.type !== "purchase" || t.testMode) continue;
    const grant = t.entries[0];
    if (grant?.type === "product_grant" && grant.subscription_id === subscriptionId)
      return t.entries.some((e) => e.type === "money_transfer");
  }
  return false;
}
