import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  START_MILLIS,
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { buy, pathOf, purchaseUrl, quantity, transactions, useTestCatalogue } from "../../../test-support/payments.ts";
import { DEFAULT_STRIPE_WEBHOOK_SECRET } from "./stripe-webhooks.ts";

/**
 * Payment-provider webhooks (upstream's /integrations/stripe/webhooks) and admin refunds
 * (/internal/payments/transactions/refund): a signed one-time purchase grants once per payment intent, and a refund of
 * it revokes the product and shows as `adjusted_by`.
 */

let provider: TestProvider;
let user: SignedUp;
let accountId: string;
beforeEach(async () => {
  provider = newProvider();
  await useTestCatalogue(provider);
  user = await signUp(provider);
  await expectJson(await api(provider, "/internal/payments/setup", { headers: admin(), json: {} }));
  accountId = (
    await expectJson<{ account_id: string }>(
      await api(provider, "/internal/payments/stripe/account-info", { headers: admin() }),
    )
  ).account_id;
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const seconds = Math.floor(START_MILLIS / 1000);
function sign(body: string, secret = DEFAULT_STRIPE_WEBHOOK_SECRET, t = seconds): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}
function webhook(event: unknown, signature?: (body: string) => string | null) {
  const body = JSON.stringify(event);
  const header = signature ? signature(body) : sign(body);
  return api(provider, "/integrations/stripe/webhooks", {
    body,
    contentType: "application/json",
    ...(header === null ? {} : { raw: { "stripe-signature": header } }),
  });
}
const paid = (pi: string, extra: Record<string, string> = {}) => ({
  id: `evt_${pi}`,
  type: "payment_intent.succeeded",
  account: accountId,
  data: {
    object: {
      id: pi,
      metadata: {
        productId: "pack",
        customerId: user.user_id,
        customerType: "user",
        purchaseKind: "ONE_TIME",
        priceId: "once",
        purchaseQuantity: "1",
        ...extra,
      },
    },
  },
});
const refund = (body: Record<string, unknown>) =>
  api(provider, "/internal/payments/transactions/refund", { headers: admin(), json: body });

describe("POST /integrations/stripe/webhooks", () => {
  it("grants a paid one-time purchase once per payment intent, with the money it moved", async () => {
    expect(await expectJson(await webhook(paid("pi_1")))).toEqual({ received: true });
    expect(await expectJson(await webhook(paid("pi_1")))).toEqual({ received: true });
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(10);
    const [purchase] = (await transactions(provider)).transactions;
    expect(purchase).toMatchObject({ type: "purchase", test_mode: false, adjusted_by: [] });
    expect(purchase!.entries.at(-1)).toMatchObject({ type: "money_transfer", charged_amount: { USD: "2.5" } });
  });

  it("takes the product snapshot the metadata carries (camel case, as the real config writes it)", async () => {
    const product = {
      displayName: "Bundle",
      customerType: "user",
      prices: { one: { USD: "5000" } },
      includedItems: { credits: { quantity: 3 } },
    };
    await expectJson(
      await webhook(
        paid("pi_2", { productId: "bundle", product: JSON.stringify(product), priceId: "one", purchaseQuantity: "2" }),
      ),
    );
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(6);
    const [purchase] = (await transactions(provider)).transactions;
    expect(purchase!.entries[0]).toMatchObject({
      product_id: "bundle",
      quantity: 2,
      product: { display_name: "Bundle", prices: { one: { USD: "5000" } } },
    });
  });

  it("refuses a wrong, stale or missing signature and events it cannot serve; an unknown type is the real 500", async () => {
    const bad = await webhook(paid("pi_3"), (body) => sign(body, "another_secret"));
    expect([bad.status, await bad.text()]).toEqual([400, "Invalid stripe-signature header"]);
    const stale = await webhook(paid("pi_3"), (body) => sign(body, DEFAULT_STRIPE_WEBHOOK_SECRET, seconds - 301));
    expect([stale.status, await stale.text()]).toEqual([400, "Invalid stripe-signature header"]);
    await expectKnownError(await webhook(paid("pi_3"), () => null), "SCHEMA_ERROR", 400);
    const unknown = await webhook({ id: "evt_x", type: "unknown.event", data: { object: {} } });
    expect([unknown.status, await unknown.text()]).toEqual([
      500,
      "Unknown stripe webhook type received: unknown.event",
    ]);
    // A provider customer the emulator never saw, with no view of it in the event.
    const subscription = await webhook({
      id: "evt_y",
      type: "invoice.paid",
      account: accountId,
      data: { object: { customer: "cus_1" } },
    });
    expect([subscription.status, await subscription.text()]).toEqual([
      400,
      "No provider customer cus_1 in this emulator",
    ]);
    expect(await expectJson(await webhook({ id: "evt_z", type: "account.updated", data: { object: {} } }))).toEqual({
      received: true,
    });
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(0);
  });
});

describe("payment emails", () => {
  it("mails the paying user a receipt for a one-time purchase, with the amount the provider received", async () => {
    const event = paid("pi_mail", { purchaseQuantity: "2" });
    Object.assign(event.data.object, {
      amount_received: 500,
      currency: "usd",
      charges: { data: [{ receipt_url: "https://example.com/r/1" }] },
    });
    await expectJson(await webhook(event));
    const mail = provider.outbox.latest({ to: user.email })!;
    expect(mail.subject).toBe(`Your receipt from ${DEV.display_name}`);
    expect(mail.outbox?.variables).toEqual({
      productName: "Credit pack",
      quantity: 2,
      amount: "USD 5.00",
      receiptLink: "https://example.com/r/1",
    });
  });

  it("mails a failed invoice only once the provider gives it up (uncollectible), not while it is open", async () => {
    const failed = (id: string, status: string) => ({
      id: `evt_${id}`,
      type: "invoice.payment_failed",
      account: accountId,
      data: {
        object: {
          id,
          customer: "cus_mail",
          amount_due: 1500,
          currency: "usd",
          status,
          hosted_invoice_url: "https://example.com/i",
          lines: { data: [{ description: "Pro" }] },
          stack_stripe_mock_data: {
            "customers.retrieve": { metadata: { customerId: user.user_id, customerType: "USER" } },
          },
        },
      },
    });
    const before = provider.outbox.list().length;
    await expectJson(await webhook(failed("in_open", "open")));
    expect(provider.outbox.list().length).toBe(before);
    await expectJson(await webhook(failed("in_gone", "uncollectible")));
    const mail = provider.outbox.latest({ to: user.email })!;
    expect(mail.subject).toBe(`Payment failed for ${DEV.display_name}`);
    expect(mail.outbox?.variables).toEqual({
      productName: "Pro",
      amount: "USD 15.00",
      invoiceUrl: "https://example.com/i",
    });
  });
});

describe("subscriptions synced from the provider's events", () => {
  const plan = {
    displayName: "Plan",
    customerType: "user",
    prices: { monthly: { USD: "10", interval: [1, "month"] } },
    includedItems: { credits: { quantity: 4, expires: "when-purchase-expires" } },
  };
  const subscription = (status: string, startSeconds: number, endSeconds: number) => ({
    id: "sub_1",
    status,
    items: { data: [{ quantity: 1, current_period_start: startSeconds, current_period_end: endSeconds }] },
    metadata: { productId: "plan", product: JSON.stringify(plan), priceId: "monthly" },
    cancel_at_period_end: false,
  });
  const event = (type: string, subs: unknown[], invoice: Record<string, unknown> = {}) => ({
    id: `evt_${type}`,
    type,
    account: accountId,
    data: {
      object: {
        customer: "cus_sync",
        ...invoice,
        stack_stripe_mock_data: {
          "customers.retrieve": { metadata: { customerId: user.user_id, customerType: "USER" } },
          "subscriptions.list": { data: subs },
        },
      },
    },
  });

  it("grants a running subscription once however often it is reported, and ends it when the provider says it ended", async () => {
    const running = subscription("active", seconds - 60, seconds + 3600);
    await expectJson(await webhook(event("invoice.paid", [running])));
    await expectJson(await webhook(event("invoice.paid", [running])));
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(4);
    const products = await expectJson<{ items: { id: string; type: string }[] }>(
      await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
    );
    expect(products.items.map((p) => [p.id, p.type])).toEqual([["plan", "subscription"]]);

    await expectJson(
      await webhook(event("customer.subscription.updated", [subscription("canceled", seconds - 120, seconds - 60)])),
    );
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(0);
    expect(
      (
        await expectJson<{ items: unknown[] }>(
          await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
        )
      ).items,
    ).toEqual([]);
  });

  it("keeps the subscription's invoices for the invoice list and records a renewal's payment once", async () => {
    const running = subscription("active", seconds - 60, seconds + 3600);
    const billing = (id: string, reason: string) => ({
      id,
      billing_reason: reason,
      status: "paid",
      total: 1000,
      lines: { data: [{ parent: { subscription_item_details: { subscription: "sub_1" } } }] },
    });
    await expectJson(
      await webhook(event("invoice.payment_succeeded", [running], billing("in_first", "subscription_create"))),
    );
    provider.clock.advance(1000);
    await expectJson(
      await webhook(event("invoice.payment_succeeded", [running], billing("in_next", "subscription_cycle"))),
    );
    await expectJson(
      await webhook(event("invoice.payment_succeeded", [running], billing("in_next", "subscription_cycle"))),
    );
    const types = (await transactions(provider)).transactions.map((t) => t.type);
    expect(types).toEqual(["subscription-renewal", "purchase"]);
    const invoices = await expectJson<{ items: { status: string; amount_total: number }[] }>(
      await api(provider, `/payments/invoices/user/${user.user_id}`, { headers: server() }),
    );
    expect(invoices.items.map((i) => [i.status, i.amount_total])).toEqual([
      ["paid", 1000],
      ["paid", 1000],
    ]);
  });
});

describe("POST /internal/payments/transactions/refund", () => {
  const purchaseId = async () => (await transactions(provider)).transactions[0]!.id;

  it("refunds a paid one-time purchase once: the product is revoked and the refund shows as adjusted_by", async () => {
    await expectJson(await webhook(paid("pi_r1")));
    const id = await purchaseId();
    expect(
      await expectJson(
        await refund({
          type: "one-time-purchase",
          id,
          refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "1.25" }],
        }),
      ),
    ).toEqual({ success: true });
    const listed = (await transactions(provider)).transactions;
    expect(listed.map((t) => t.id)).toEqual([id]);
    expect(listed[0]!.adjusted_by).toEqual([{ transaction_id: `${id}:refund`, entry_index: 0 }]);
    const products = await expectJson<{ items: unknown[] }>(
      await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
    );
    expect(products.items).toEqual([]);
    const again = await expectKnownError(
      await refund({ type: "one-time-purchase", id, refund_entries: [] }),
      "ONE_TIME_PURCHASE_ALREADY_REFUNDED",
      400,
    );
    expect(again.details).toEqual({ one_time_purchase_id: id });
  });

  it("checks the entries with the real messages, and changes nothing when refused", async () => {
    await expectJson(await webhook(paid("pi_r2")));
    const id = await purchaseId();
    const cases: [unknown, string][] = [
      [[{ entry_index: 0, quantity: -1, amount_usd: "1" }], "Refund quantity cannot be negative."],
      [
        [
          { entry_index: 0, quantity: 1, amount_usd: "1" },
          { entry_index: 0, quantity: 1, amount_usd: "1" },
        ],
        "Refund entries cannot contain duplicate entry indexes.",
      ],
      [[{ entry_index: 9, quantity: 1, amount_usd: "1" }], "Refund entry index is invalid."],
      [[{ entry_index: -1, quantity: 1, amount_usd: "1" }], "Refund entry index is invalid."],
      [[{ entry_index: 1, quantity: 1, amount_usd: "1" }], "Refund entries must reference product grant entries."],
      [[{ entry_index: 0, quantity: 2, amount_usd: "1" }], "Refund quantity cannot exceed purchased quantity."],
      [[{ entry_index: 0, quantity: 1, amount_usd: "2.51" }], "Refund amount cannot exceed the charged amount."],
    ];
    for (const [entries, message] of cases) {
      const error = await expectKnownError(
        await refund({ type: "one-time-purchase", id, refund_entries: entries }),
        "SCHEMA_ERROR",
        400,
      );
      expect(error.details).toEqual({ message });
    }
    const negative = await expectKnownError(
      await refund({
        type: "one-time-purchase",
        id,
        refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "-1" }],
      }),
      "SCHEMA_ERROR",
      400,
    );
    expect(negative.details).toEqual({
      message:
        "Request validation failed on POST /api/v1/internal/payments/transactions/refund:\n  - Money amount must be in the format of <number> or <number>.<number>",
    });
    expect((await transactions(provider)).transactions[0]!.adjusted_by).toEqual([]);
    expect(
      await expectJson(
        await refund({
          type: "one-time-purchase",
          id,
          refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "0" }],
        }),
      ),
    ).toEqual({ success: true });
  });

  it("refuses test-mode purchases, unpaid grants and unknown ids with the real known errors", async () => {
    const url = await purchaseUrl(provider, server(), {
      customer_type: "user",
      customer_id: user.user_id,
      offer_id: "pack",
    });
    await expectJson(
      await api(provider, "/internal/payments/test-mode-purchase-session", {
        headers: admin(),
        json: { full_code: pathOf(url).split("/").pop(), price_id: "once" },
      }),
    );
    const testMode = await purchaseId();
    provider.clock.advance(1);
    await expectKnownError(
      await refund({ type: "one-time-purchase", id: testMode, refund_entries: [] }),
      "TEST_MODE_PURCHASE_NON_REFUNDABLE",
      400,
    );
    await expectJson(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: server(),
        json: { product_id: "pack" },
      }),
    );
    // The grant is newer than the test-mode purchase by creation time, not only by id.
    const granted = await purchaseId();
    await expectKnownError(
      await refund({ type: "one-time-purchase", id: granted, refund_entries: [] }),
      "ONE_TIME_PURCHASE_NOT_FOUND",
      404,
    );
    await expectKnownError(
      await refund({ type: "one-time-purchase", id: "nope", refund_entries: [] }),
      "ONE_TIME_PURCHASE_NOT_FOUND",
      404,
    );
    const missing = await expectKnownError(
      await refund({ type: "subscription", id: DEV.id, refund_entries: [] }),
      "SUBSCRIPTION_INVOICE_NOT_FOUND",
      404,
    );
    expect(missing.details).toEqual({ subscription_invoice_id: DEV.id });
  });

  it("refunds a paid subscription, ending it when its whole quantity is refunded", async () => {
    await buy(
      provider,
      await purchaseUrl(provider, server(), { customer_type: "user", customer_id: user.user_id, offer_id: "plan" }),
      { price_id: "monthly" },
    );
    const [purchase] = (await transactions(provider)).transactions;
    const grant = purchase!.entries[0]!;
    const subscriptionId = grant.type === "product_grant" ? grant.subscription_id! : "";
    expect(
      await expectJson(
        await refund({
          type: "subscription",
          id: subscriptionId,
          refund_entries: [{ entry_index: 0, quantity: 1, amount_usd: "9.99" }],
        }),
      ),
    ).toEqual({ success: true });
    // Cancelled at its period's end: a month on, the plan is no longer held (the cancellation itself is not listed).
    expect((await transactions(provider)).transactions.map((t) => t.type)).toEqual(["purchase"]);
    const products = async () =>
      (
        await expectJson<{ items: { id: string | null }[] }>(
          await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
        )
      ).items.map((p) => p.id);
    expect(await products()).toEqual(["plan"]);
    provider.clock.advance(32 * 24 * 3_600_000);
    expect(await products()).toEqual([]);
    await expectKnownError(
      await refund({ type: "subscription", id: subscriptionId, refund_entries: [] }),
      "SUBSCRIPTION_ALREADY_REFUNDED",
      400,
    );
  });
});
