import {
  billingParams,
  invoicesQuery,
  setupIntentBody,
  cancelProductQuery,
  customerProductParams,
  createPurchaseUrlBody,
  customerParams,
  customerProductsQuery,
  grantProductBody,
  itemParams,
  listTransactionsQuery,
  purchaseSessionBody,
  refundTransactionBody,
  stripeWebhookBody,
  switchPlanBody,
  switchPlanParams,
  validatePurchaseCodeBody,
  validatePurchaseCodeQuery,
  updatePaymentMethodConfigsBody,
  testModePurchaseBody,
  updateItemQuantityBody,
  updateItemQuantityQuery,
} from "@authsim/sdk/contract";
import { billingOf, cancelProduct, grantProduct, listCustomerProducts } from "../../domain/ops/customer-products.ts";
import { getItem, updateItemQuantity } from "../../domain/ops/items.ts";
import { listInvoices } from "../../domain/ops/invoices.ts";
import { createSetupIntent } from "../../domain/ops/payment-methods.ts";
import { checkPurchaseCode, purchaseSession, validatePurchaseCode } from "../../domain/ops/purchase-codes.ts";
import { paymentMethodConfigs, setupPayments, stripeAccountInfo, stripeWidgetSession, updatePaymentMethodConfigs } from "../../domain/ops/payment-accounts.ts";
import { createPurchaseUrl, testModePurchase } from "../../domain/ops/purchases.ts";
import { listTransactions } from "../../domain/ops/transactions.ts";
import { refundTransaction } from "../../domain/ops/refunds.ts";
import { switchPlan } from "../../domain/ops/plan-switch.ts";
import { receiveStripeWebhook } from "../../domain/ops/stripe-webhooks.ts";
import { rawBodyOf, schemaError } from "../http/parse.ts";
import { itemView, transactionView } from "../../domain/views/payments.ts";
import { noBody, ok, route, success, type AnyRouteSpec } from "./define.ts";

/** Payments (spec §7; protocol.md §5.13): items, purchase URLs, and the admin payment-provider and transaction calls. */
export const paymentRoutes: Record<string, AnyRouteSpec> = {
  getItem: route({
    params: itemParams,
    handler: ({ auth, ctx, params }) => ok(itemView(getItem(ctx, auth!, params))),
  }),
  updateItemQuantity: route({
    params: itemParams,
    query: updateItemQuantityQuery,
    body: updateItemQuantityBody,
    handler: ({ auth, ctx, params, query, body }) => {
      updateItemQuantity(ctx, auth!, params, query.allow_negative ?? false, body);
      return ok({});
    },
  }),
  getBilling: route({
    params: billingParams,
    handler: ({ auth, ctx, params }) => ok(billingOf(ctx, auth!, params)),
  }),
  createSetupIntent: route({
    params: billingParams,
    body: setupIntentBody,
    handler: ({ auth, ctx, params }) => ok(createSetupIntent(ctx, auth!, params)),
  }),
  listInvoices: route({
    params: billingParams,
    query: invoicesQuery,
    handler: ({ auth, ctx, params, query }) => {
      const page = listInvoices(ctx, auth!, params, query);
      return ok({ items: page.items, is_paginated: true, pagination: { next_cursor: page.nextCursor } });
    },
  }),
  listCustomerProducts: route({
    params: customerParams,
    query: customerProductsQuery,
    handler: ({ auth, ctx, params, query }) => {
      const page = listCustomerProducts(ctx, auth!, params, query);
      return ok({ items: page.items, is_paginated: true, pagination: { next_cursor: page.nextCursor } });
    },
  }),
  grantProduct: route({
    params: customerParams,
    body: grantProductBody,
    handler: ({ auth, ctx, params, body }) => {
      const { subscriptionId } = grantProduct(ctx, auth!, params, body);
      return ok({ success: true, ...(subscriptionId ? { subscription_id: subscriptionId } : {}) });
    },
  }),
  cancelProduct: route({
    params: customerProductParams,
    query: cancelProductQuery,
    handler: ({ auth, ctx, params, query }) => {
      cancelProduct(ctx, auth!, params, query.subscription_id);
      return ok({ success: true });
    },
  }),
  switchPlan: route({
    params: switchPlanParams,
    body: switchPlanBody,
    handler: ({ auth, ctx, params, body }) => {
      switchPlan(ctx, auth!, params, body);
      return success();
    },
  }),
  createPurchaseUrl: route({
    body: createPurchaseUrlBody,
    handler: ({ auth, ctx, body }) => ok({ url: createPurchaseUrl(ctx, auth!, body) }),
  }),
  validatePurchaseCode: route({
    body: validatePurchaseCodeBody,
    handler: ({ ctx, body }) => ok(validatePurchaseCode(ctx, body)),
  }),
  checkPurchaseCode: route({
    query: validatePurchaseCodeQuery,
    handler: ({ ctx, query }) => ok(checkPurchaseCode(ctx, query)),
  }),
  purchaseSession: route({
    body: purchaseSessionBody,
    handler: ({ ctx, body }) => ok(purchaseSession(ctx, body)),
  }),
  paymentsSetup: route({
    body: noBody,
    handler: ({ auth, ctx }) => ok({ url: setupPayments(ctx, auth!.project.id) }),
  }),
  stripeAccountInfo: route({
    handler: ({ auth, ctx }) => ok(stripeAccountInfo(ctx, auth!.project.id)),
  }),
  stripeWidgetSession: route({
    body: noBody,
    handler: ({ auth, ctx }) => ok({ client_secret: stripeWidgetSession(ctx, auth!.project.id) }),
  }),
  getPaymentMethodConfigs: route({
    handler: ({ auth, ctx }) => ok(paymentMethodConfigs(ctx, auth!.project.id)),
  }),
  updatePaymentMethodConfigs: route({
    body: updatePaymentMethodConfigsBody,
    handler: ({ auth, ctx, body }) => {
      updatePaymentMethodConfigs(ctx, auth!.project.id, body);
      return ok({ success: true });
    },
  }),
  listTransactions: route({
    query: listTransactionsQuery,
    handler: ({ auth, ctx, query }) => {
      const page = listTransactions(ctx, auth!.project.id, query);
      return ok({ transactions: page.items.map((t) => transactionView(t, page.adjustedBy.get(t.id))), next_cursor: page.nextCursor });
    },
  }),
  refundTransaction: route({
    body: refundTransactionBody,
    handler: ({ auth, ctx, body }) => {
      refundTransaction(ctx, auth!, body);
      return success();
    },
  }),
  stripeWebhook: route({
    body: stripeWebhookBody,
    handler: async ({ ctx, request }) => {
      // The signature covers the exact bytes sent; a missing header is upstream's schema refusal.
      const signature = request.headers.get("stripe-signature");
      if (signature === null) throw schemaError({ method: request.method, pathname: new URL(request.url).pathname }, ["headers.stripe-signature must be defined"]);
      await receiveStripeWebhook(ctx, signature, rawBodyOf(request) ?? "");
      return ok({ received: true });
    },
  }),
  testModePurchaseSession: route({
    body: testModePurchaseBody,
    handler: ({ auth, ctx, body }) => {
      testModePurchase(ctx, auth!, body);
      return success();
    },
  }),
};
