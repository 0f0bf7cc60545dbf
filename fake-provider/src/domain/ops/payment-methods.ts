import type { SetupIntentJson } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import type { Auth } from "../../api/auth/parse-auth.ts";
import { StatusError } from "../errors/known-error.ts";
import type { OpContext } from "./context.ts";
import { assertClientMayManage, assertCustomerExists, type Customer } from "./customers.ts";
import { accountOf } from "./payment-accounts.ts";

/**
 * POST /payments/payment-method/{type}/{id}/setup-intent: the provider's setup intent with which a customer's browser
 * saves a new default card. The emulated provider keeps no card per customer (GET /payments/billing answers its test
 * card once payments are set up), so the intent is only its secret and the account it belongs to.
 */

/** What upstream answers when a project has no payments account (its provider lookup). */
export const PAYMENTS_NOT_SET_UP =
  "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.";

export function createSetupIntent(ctx: OpContext, auth: Auth, params: { customer_type: "user" | "team"; customer_id: string }): SetupIntentJson {
  const customer: Customer = { type: params.customer_type, id: params.customer_id };
  assertClientMayManage(ctx, auth, customer, "Clients can only manage their own payment method.");
  const account = accountOf(ctx, auth.project.id);
  if (!account) throw new StatusError(400, PAYMENTS_NOT_SET_UP);
  assertCustomerExists(ctx, auth.project.id, customer);
  const intentId = `seti_${randomBase32(ctx.random, 120)}`;
  return { client_secret: `${intentId}_secret_${randomBase32(ctx.random, 120)}`, stripe_account_id: account.accountId };
}
