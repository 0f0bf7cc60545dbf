import {
  createPurchaseUrlBody,
  itemParams,
  listTransactionsQuery,
  testModePurchaseBody,
  updateItemQuantityBody,
  updateItemQuantityQuery,
} from "@authsim/sdk/contract";
import { getItem, updateItemQuantity } from "../ops/items.ts";
import { setupPayments, stripeAccountInfo, stripeWidgetSession } from "../ops/payment-accounts.ts";
import { createPurchaseUrl, testModePurchase } from "../ops/purchases.ts";
import { listTransactions } from "../ops/transactions.ts";
import { itemView, transactionView } from "../views/payments.ts";
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
  createPurchaseUrl: route({
    body: createPurchaseUrlBody,
    handler: ({ auth, ctx, body }) => ok({ url: createPurchaseUrl(ctx, auth!, body) }),
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
  listTransactions: route({
    query: listTransactionsQuery,
    handler: ({ auth, ctx, query }) => {
      const page = listTransactions(ctx, auth!.project.id, query);
      return ok({ transactions: page.items.map(transactionView), next_cursor: page.nextCursor });
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
