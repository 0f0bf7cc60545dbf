import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  admin,
  api,
  expectJson,
  expectKnownError,
  server,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { buy, pathOf, purchaseUrl, transactions } from "../../../test-support/payments.ts";
import {
  expectNothingUnexpected,
  paidEvent,
  stripeWebhook,
  withPaymentsAccount,
  type PaymentsAccount,
} from "../../../test-support/stripe-account.ts";

/**
 * Admin refunds (/internal/payments/transactions/refund) of purchases the provider's webhooks granted: a refund
 * revokes the product and shows as `adjusted_by`.
 */

let account: PaymentsAccount;
let provider: TestProvider;
let user: SignedUp;
beforeEach(async () => {
  account = await withPaymentsAccount();
  ({ provider, user } = account);
});
afterEach(() => expectNothingUnexpected(account));

const webhook = (event: unknown, signature?: (body: string) => string | null) =>
  stripeWebhook(provider, event, signature);
const paid = (pi: string, extra?: Record<string, string>) => paidEvent(account, pi, extra);

const refund = (body: Record<string, unknown>) =>
  api(provider, "/internal/payments/transactions/refund", { headers: admin(), json: body });

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
