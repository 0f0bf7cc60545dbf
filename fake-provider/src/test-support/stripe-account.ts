import { createHmac } from "node:crypto";
import { expect } from "vitest";
import { DEFAULT_STRIPE_WEBHOOK_SECRET } from "../domain/ops/payments/stripe-webhooks.ts";
import { START_MILLIS, admin, api, expectJson, newProvider, signUp, type SignedUp, type TestProvider } from "./api.ts";
import { useTestCatalogue } from "./payments.ts";

/**
 * A project with a payments account, as the payment provider's webhooks and the refunds tests need it: the test
 * catalogue, a signed-up user and the account's id; and the provider's events, signed as Stripe signs them.
 */

export interface PaymentsAccount {
  provider: TestProvider;
  user: SignedUp;
  accountId: string;
}

export async function withPaymentsAccount(): Promise<PaymentsAccount> {
  const provider = newProvider();
  await useTestCatalogue(provider);
  const user = await signUp(provider);
  await expectJson(await api(provider, "/internal/payments/setup", { headers: admin(), json: {} }));
  const { account_id: accountId } = await expectJson<{ account_id: string }>(
    await api(provider, "/internal/payments/stripe/account-info", { headers: admin() }),
  );
  return { provider, user, accountId };
}

/** The provider recorded nothing it did not expect (call after each case). */
export const expectNothingUnexpected = ({ provider }: PaymentsAccount) => expect(provider.unexpected).toEqual([]);

/** The webhooks' clock: the fixed start, in seconds. */
export const webhookSeconds = Math.floor(START_MILLIS / 1000);

/** A `Stripe-Signature` header: `t=<seconds>,v1=<HMAC-SHA256 of "t.body">`. */
export function stripeSignature(body: string, secret = DEFAULT_STRIPE_WEBHOOK_SECRET, t = webhookSeconds): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** Posts an event to the webhook route, signed unless `signature` says otherwise (null: no header). */
export function stripeWebhook(provider: TestProvider, event: unknown, signature?: (body: string) => string | null) {
  const body = JSON.stringify(event);
  const header = signature ? signature(body) : stripeSignature(body);
  return api(provider, "/integrations/stripe/webhooks", {
    body,
    contentType: "application/json",
    ...(header === null ? {} : { raw: { "stripe-signature": header } }),
  });
}

/** `payment_intent.succeeded` for a one-time purchase of the catalogue's `pack` by the account's user. */
export const paidEvent = ({ accountId, user }: PaymentsAccount, pi: string, extra: Record<string, string> = {}) => ({
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
