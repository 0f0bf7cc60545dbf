import { type PaymentMethodSummaryJson } from "../contract/areas/payments.ts";
import type { UserTokenSource } from "../transport/transport.ts";
import { asClient } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";

/**
 * A customer's billing and default payment method (sdk-surface.md §15: getBilling, createPaymentMethodSetupIntent,
 * setDefaultPaymentMethodFromSetupIntent), for users and teams (the payment-method routes take no custom customers).
 * A client acts for its own user and the teams it is team_admin of; a server app for anyone. The card itself is typed
 * into the payment provider's browser script with the setup intent's client secret, never sent through here.
 */

export interface BillingCustomer {
  type: "user" | "team";
  id: string;
}

/** A card on file, in the published kit's words (its CustomerDefaultPaymentMethod keeps the wire's snake case). */
export type CustomerDefaultPaymentMethod = PaymentMethodSummaryJson | null;

export interface CustomerBilling {
  /** Whether the payment provider has a customer for it (false until the project's payments are set up). */
  hasCustomer: boolean;
  defaultPaymentMethod: CustomerDefaultPaymentMethod;
}

export interface CustomerPaymentMethodSetupIntent {
  /** What the provider's browser script confirms the intent with. */
  clientSecret: string;
  /** The project's payment-provider account the intent belongs to. */
  stripeAccountId: string;
}

export interface CustomerBillingMethods {
  getBilling(): Promise<CustomerBilling>;
  createPaymentMethodSetupIntent(): Promise<CustomerPaymentMethodSetupIntent>;
  /** After the browser confirmed the intent: its card becomes the default, which this answers. */
  setDefaultPaymentMethodFromSetupIntent(setupIntentId: string): Promise<CustomerDefaultPaymentMethod>;
}

const billingParams = (customer: BillingCustomer) => ({ customer_type: customer.type, customer_id: customer.id });

/** The billing members of a user or team; `session` is the signed-in user's for a client, null for a server app. */
export function customerBillingMethods(
  ctx: AppContext,
  customer: BillingCustomer,
  session: UserTokenSource | null,
): CustomerBillingMethods {
  const params = billingParams(customer);
  return {
    async getBilling() {
      const json = await asClient.json(ctx.transport, "getBilling", { params, session, allowAnonymousUser: true });
      return { hasCustomer: json.has_customer, defaultPaymentMethod: json.default_payment_method };
    },
    async createPaymentMethodSetupIntent() {
      const json = await asClient.json(ctx.transport, "createSetupIntent", {
        params,
        body: {},
        session,
        allowAnonymousUser: true,
      });
      return { clientSecret: json.client_secret, stripeAccountId: json.stripe_account_id };
    },
    async setDefaultPaymentMethodFromSetupIntent(setupIntentId) {
      const body = { setup_intent_id: setupIntentId };
      const json = await asClient.json(ctx.transport, "setDefaultPaymentMethod", {
        params,
        body,
        session,
        allowAnonymousUser: true,
      });
      return json.default_payment_method;
    },
  };
}
