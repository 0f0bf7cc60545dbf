import { cancelProduct, grantProduct, listCustomerProducts } from "../../domain/ops/payments/customer-products.ts";
import { getItem, updateItemQuantity } from "../../domain/ops/payments/items.ts";
import { listInvoices } from "../../domain/ops/payments/invoices.ts";
import { billingOf, createSetupIntent, setDefaultPaymentMethod } from "../../domain/ops/payments/payment-methods.ts";
import { checkPurchaseCode, purchaseSession, validatePurchaseCode } from "../../domain/ops/payments/purchase-codes.ts";
import {
  paymentMethodConfigs,
  setupPayments,
  stripeAccountInfo,
  stripeWidgetSession,
  updatePaymentMethodConfigs,
} from "../../domain/ops/payments/payment-accounts.ts";
import { createPurchaseUrl, testModePurchase } from "../../domain/ops/payments/purchases.ts";
import { listTransactions } from "../../domain/ops/payments/transactions.ts";
import { refundTransaction } from "../../domain/ops/payments/refunds.ts";
import { switchPlan } from "../../domain/ops/payments/plan-switch.ts";
import { receiveStripeWebhook } from "../../domain/ops/payments/stripe-webhooks.ts";
import { rawBodyOf, schemaError } from "../http/parse.ts";
import { itemView, transactionView } from "../../domain/views/payments.ts";
import { ok, success, type RouteTable } from "./define.ts";

/** Payments (spec §7; protocol.md §5.13): items, purchase URLs, and the admin payment-provider and transaction calls. */
export const paymentRoutes: RouteTable = {
  getItem: {
    handler: ({ auth, ctx, params }) => ok(itemView(getItem(ctx, auth, params))),
  },
  updateItemQuantity: {
    handler: ({ auth, ctx, params, query, body }) => {
      updateItemQuantity(ctx, auth, params, query.allow_negative, body);
      return ok({});
    },
  },
  getBilling: {
    handler: ({ auth, ctx, params }) => ok(billingOf(ctx, auth, params)),
  },
  createSetupIntent: {
    handler: ({ auth, ctx, params }) => ok(createSetupIntent(ctx, auth, params)),
  },
  setDefaultPaymentMethod: {
    handler: ({ auth, ctx, params, body }) => ok(setDefaultPaymentMethod(ctx, auth, params, body)),
  },
  listInvoices: {
    handler: ({ auth, ctx, params, query }) => {
      const page = listInvoices(ctx, auth, params, query);
      return ok({ items: page.items, is_paginated: true, pagination: { next_cursor: page.nextCursor } });
    },
  },
  listCustomerProducts: {
    handler: ({ auth, ctx, params, query }) => {
      const page = listCustomerProducts(ctx, auth, params, query);
      return ok({ items: page.items, is_paginated: true, pagination: { next_cursor: page.nextCursor } });
    },
  },
  grantProduct: {
    handler: ({ auth, ctx, params, body }) => {
      const { subscriptionId } = grantProduct(ctx, auth, params, body);
      return ok({ success: true, ...(subscriptionId ? { subscription_id: subscriptionId } : {}) });
    },
  },
  cancelProduct: {
    handler: ({ auth, ctx, params, query }) => {
      cancelProduct(ctx, auth, params, query.subscription_id);
      return ok({ success: true });
    },
  },
  switchPlan: {
    handler: ({ auth, ctx, params, body }) => {
      switchPlan(ctx, auth, params, body);
      return success();
    },
  },
  createPurchaseUrl: {
    handler: ({ auth, ctx, body }) => ok({ url: createPurchaseUrl(ctx, auth, body) }),
  },
  validatePurchaseCode: {
    handler: ({ ctx, body }) => ok(validatePurchaseCode(ctx, body)),
  },
  checkPurchaseCode: {
    handler: ({ ctx, query }) => ok(checkPurchaseCode(ctx, query)),
  },
  purchaseSession: {
    handler: ({ ctx, body }) => ok(purchaseSession(ctx, body)),
  },
  paymentsSetup: {
    handler: ({ auth, ctx }) => ok({ url: setupPayments(ctx, auth.project.id) }),
  },
  stripeAccountInfo: {
    handler: ({ auth, ctx }) => ok(stripeAccountInfo(ctx, auth.project.id)),
  },
  stripeWidgetSession: {
    handler: ({ auth, ctx }) => ok({ client_secret: stripeWidgetSession(ctx, auth.project.id) }),
  },
  getPaymentMethodConfigs: {
    handler: ({ auth, ctx }) => ok(paymentMethodConfigs(ctx, auth.project.id)),
  },
  updatePaymentMethodConfigs: {
    handler: ({ auth, ctx, body }) => {
      updatePaymentMethodConfigs(ctx, auth.project.id, body);
      return ok({ success: true });
    },
  },
  listTransactions: {
    handler: ({ auth, ctx, query }) => {
      const page = listTransactions(ctx, auth.project.id, query);
      return ok({
        transactions: page.items.map((t) => transactionView(t, page.adjustedBy.get(t.id))),
        next_cursor: page.nextCursor,
      });
    },
  },
  refundTransaction: {
    handler: ({ auth, ctx, body }) => {
      refundTransaction(ctx, auth, body);
      return success();
    },
  },
  stripeWebhook: {
    handler: async ({ ctx, request }) => {
      // The signature covers the exact bytes sent; a missing header is upstream's schema refusal.
      const signature = request.headers.get("stripe-signature");
      if (signature === null)
        throw schemaError({ method: request.method, pathname: new URL(request.url).pathname }, [
          "headers.stripe-signature must be defined",
        ]);
      await receiveStripeWebhook(ctx, signature, rawBodyOf(request) ?? "");
      return ok({ received: true });
    },
  },
  testModePurchaseSession: {
    handler: ({ auth, ctx, body }) => {
      testModePurchase(ctx, auth, body);
      return success();
    },
  },
};
