import { createHmac } from "node:crypto";
import { expect, it } from "vitest";
import type { InProcessTarget } from "../targets.ts";
import { buyOnCheckoutPage, providerNow } from "./payments-support.ts";
import { projectOfItsOwn } from "./own-project.ts";
import { call, signUp } from "./response-extras-support.ts";

/**
 * The payments routes no conformance suite calls successfully, for response-schemas.test.ts (as response-extras.ts):
 * config linked and reset, payments set up, a subscription granted and cancelled, a purchase code bought through,
 * a plan switched, a signed payment webhook and a refund.
 */
export function extraPaymentCalls(getTarget: () => InProcessTarget): void {
  it("links and resets config, sets payments up, grants and cancels a subscription, and buys through a purchase code", async () => {
    const target = getTarget();
    await call(target, "/internal/config/source", { access: "admin" });
    await call(target, "/internal/config/source", { access: "admin", method: "DELETE" });
    await call(target, "/internal/config/override/environment/reset-keys", {
      access: "admin",
      json: { keys: ["apps"] },
    });
    await call(target, "/internal/payments/setup", { access: "admin", json: {} });
    const methods = await call<{ config_id: string }>(target, "/internal/payments/method-configs", { access: "admin" });
    await call(target, "/internal/payments/method-configs", {
      access: "admin",
      method: "PATCH",
      json: { config_id: methods.config_id, updates: { link: "off" } },
    });
    const plan = {
      customerType: "user",
      prices: { monthly: { USD: "5", interval: [1, "month"] }, once: { USD: "50" } },
      includedItems: {},
    };
    await call(target, "/internal/config/override/environment", {
      access: "admin",
      method: "PATCH",
      json: { config_override_string: JSON.stringify({ "payments.products.extras-plan": plan }) },
    });
    const user = await signUp(target);
    const me = { access: "client" as const, accessToken: user.access_token };
    await call(target, `/payments/billing/user/${user.user_id}`, me);
    await call(target, `/payments/payment-method/user/${user.user_id}/setup-intent`, { ...me, json: {} });
    await call(target, `/payments/invoices/user/${user.user_id}`, me);
    await call(target, `/payments/products/user/${user.user_id}`, {
      access: "server",
      json: { product_id: "extras-plan" },
    });
    await call(target, `/payments/products/user/${user.user_id}?limit=1`, me);
    await call(target, `/payments/products/user/${user.user_id}/extras-plan`, { ...me, method: "DELETE" });
    const other = await signUp(target);
    const { url } = await call<{ url: string }>(target, "/payments/purchases/create-purchase-url", {
      access: "server",
      json: { customer_type: "user", customer_id: other.user_id, product_id: "extras-plan" },
    });
    const fullCode = new URL(url).pathname.split("/").pop()!;
    await call(target, "/payments/purchases/validate-code", { json: { full_code: fullCode } });
    await call(target, `/payments/purchases/validate-code?full_code=${fullCode}`);
    await call(target, "/payments/purchases/purchase-session", { json: { full_code: fullCode, price_id: "once" } });
  });

  it("switches a paid plan, takes a signed payment webhook and refunds the purchase it granted", async () => {
    const base = getTarget();
    // Payments configuration is per project: a project of the case's own, so the dev project's catalogue stays as it is.
    const target: InProcessTarget = { ...base, ...(await projectOfItsOwn(base)) };
    const user = await signUp(target);
    const monthly = (USD: string) => ({ monthly: { USD, interval: [1, "month"] } });
    const products = {
      basic: {
        displayName: "Basic",
        customerType: "user",
        productLineId: "plans",
        prices: monthly("10"),
        includedItems: {},
      },
      pro: {
        displayName: "Pro",
        customerType: "user",
        productLineId: "plans",
        prices: monthly("20"),
        includedItems: {},
      },
      once: { displayName: "Once", customerType: "user", prices: { one: { USD: "5" } }, includedItems: {} },
    };
    const config = {
      "payments.testMode": false,
      "payments.productLines": { plans: { displayName: "Plans" } },
      "payments.products": products,
    };
    await call(target, "/internal/config/override/environment", {
      method: "PATCH",
      access: "admin",
      json: { config_override_string: JSON.stringify(config) },
    });
    await call(target, "/internal/payments/setup", { access: "admin", json: {} });
    const { url } = await call<{ url: string }>(target, "/payments/purchases/create-purchase-url", {
      access: "server",
      json: { customer_type: "user", customer_id: user.user_id, product_id: "basic" },
    });
    await buyOnCheckoutPage(target, url);
    await call(target, `/payments/products/user/${user.user_id}/switch`, {
      access: "client",
      accessToken: user.access_token,
      json: { from_product_id: "basic", to_product_id: "pro" },
    });

    // A one-time purchase paid at the payment provider, announced by its signed webhook (the development secret).
    const { account_id: account } = await call<{ account_id: string }>(
      target,
      "/internal/payments/stripe/account-info",
      { access: "admin" },
    );
    const metadata = {
      productId: "once",
      customerId: user.user_id,
      customerType: "user",
      purchaseKind: "ONE_TIME",
      priceId: "one",
      purchaseQuantity: "1",
    };
    const event = JSON.stringify({
      id: "evt_conformance",
      type: "payment_intent.succeeded",
      account,
      data: { object: { id: "pi_conformance", metadata } },
    });
    const t = Math.floor((await providerNow(target)) / 1000);
    const signature = `t=${t},v1=${createHmac("sha256", "mock_stripe_webhook_secret").update(`${t}.${event}`).digest("hex")}`;
    await call(target, "/integrations/stripe/webhooks", {
      rawBody: event,
      headers: { "content-type": "application/json", "stripe-signature": signature },
    });

    const { transactions } = await call<{
      transactions: { id: string; type: string; entries: { type: string; product_id?: string }[] }[];
    }>(target, "/internal/payments/transactions", { access: "admin" });
    const purchase = transactions.find(
      (tx) => tx.type === "purchase" && tx.entries.some((e) => e.product_id === "once"),
    );
    expect(purchase, JSON.stringify(transactions).slice(0, 500)).toBeDefined();
    await call(target, "/internal/payments/transactions/refund", {
      access: "admin",
      json: {
        type: "one-time-purchase",
        id: purchase!.id,
        refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "1" }],
      },
    });
  });
}
