import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  api,
  expectJson,
  expectKnownError,
  server,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { quantity, transactions } from "../../../test-support/payments.ts";
import {
  expectNothingUnexpected,
  paidEvent,
  stripeSignature,
  stripeWebhook,
  webhookSeconds,
  withPaymentsAccount,
  type PaymentsAccount,
} from "../../../test-support/stripe-account.ts";
import { DEFAULT_STRIPE_WEBHOOK_SECRET } from "./stripe-webhooks.ts";

/**
 * Payment-provider webhooks (upstream's /integrations/stripe/webhooks): a signed one-time purchase grants once per
 * payment intent, receipts and failed invoices are mailed, subscriptions follow the provider's events.
 */

let account: PaymentsAccount;
let provider: TestProvider;
let user: SignedUp;
let accountId: string;
beforeEach(async () => {
  account = await withPaymentsAccount();
  ({ provider, user, accountId } = account);
});
afterEach(() => expectNothingUnexpected(account));

const webhook = (event: unknown, signature?: (body: string) => string | null) =>
  stripeWebhook(provider, event, signature);
const paid = (pi: string, extra?: Record<string, string>) => paidEvent(account, pi, extra);

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
    const bad = await webhook(paid("pi_3"), (body) => stripeSignature(body, "another_secret"));
    expect([bad.status, await bad.text()]).toEqual([400, "Invalid stripe-signature header"]);
    const stale = await webhook(paid("pi_3"), (body) =>
      stripeSignature(body, DEFAULT_STRIPE_WEBHOOK_SECRET, webhookSeconds - 301),
    );
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
    const running = subscription("active", webhookSeconds - 60, webhookSeconds + 3600);
    await expectJson(await webhook(event("invoice.paid", [running])));
    await expectJson(await webhook(event("invoice.paid", [running])));
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(4);
    const products = await expectJson<{ items: { id: string; type: string }[] }>(
      await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
    );
    expect(products.items.map((p) => [p.id, p.type])).toEqual([["plan", "subscription"]]);

    await expectJson(
      await webhook(
        event("customer.subscription.updated", [subscription("canceled", webhookSeconds - 120, webhookSeconds - 60)]),
      ),
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
    const running = subscription("active", webhookSeconds - 60, webhookSeconds + 3600);
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
