import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of payments (domain/ops/payments/). */
export const paymentsRefusals = {
  // domain/ops/payments/customer-products.ts, invoices.ts, transaction-cursor.ts
  invalidCursor: {
    status: 400,
    text: "Invalid cursor",
    operations: ["listCustomerProducts", "listInvoices", "listTransactions"],
  },
  clientsCanOnlyCancelTheir: {
    status: 403,
    text: "Clients can only cancel their own subscriptions.",
    operations: ["cancelProduct"],
  },
  clientsCanOnlyCancelUser: {
    status: 403,
    text: "Clients can only cancel user or team subscriptions they control.",
    operations: ["cancelProduct"],
  },
  noActiveSubscriptionFoundId: {
    status: 400,
    text: "No active subscription found with this ID for the given customer.",
    operations: ["cancelProduct"],
  },
  customerLacksProduct: { status: 400, text: "Customer does not have this product.", operations: ["cancelProduct"] },
  productOneTimePurchaseCannot: {
    status: 400,
    text: "This product is a one time purchase and cannot be canceled.",
    operations: ["cancelProduct"],
  },
  // domain/ops/payments/payment-accounts.ts
  stripeAccountIdSet: { status: 400, text: "Stripe account ID is not set" },
  noPaymentMethodConfigurationAccount: {
    status: 400,
    text: (configId: Arg) => `No payment method configuration ${configId} on this account`,
    operations: ["updatePaymentMethodConfigs"],
  },
  // domain/ops/payments/payment-methods.ts
  noSuchSetupintent: {
    status: 404,
    text: (setupIntentId: Arg) => `No such setupintent: '${setupIntentId}'`,
    operations: ["setDefaultPaymentMethod"],
  },
  setupIntentDoesBelongCustomer: {
    status: 403,
    text: "Setup intent does not belong to this customer.",
    operations: ["setDefaultPaymentMethod"],
  },
  setupIntentSucceeded: {
    status: 400,
    text: "Setup intent has not succeeded.",
    operations: ["setDefaultPaymentMethod"],
  },
  noSetupIntentClientSecret: { status: 404, text: "No setup intent has this client secret." },
  setupIntentAlreadySucceededCreate: {
    status: 400,
    text: "This setup intent has already succeeded: create a new one to save another card.",
  },
  cardNumberInvalid: { status: 400, text: "Your card number is invalid." },
  cardExpired: { status: 400, text: "Your card has expired." },
  cardWasDeclined: { status: 402, text: "Your card was declined." },
  // domain/ops/payments/plan-switch.ts
  switchProductNotFound: { status: 400, text: "Product not found.", operations: ["switchPlan"] },
  productCustomerTypeDoesMatch: {
    status: 400,
    text: "Product customer type does not match.",
    operations: ["switchPlan"],
  },
  productsSameProductLineSwitch: {
    status: 400,
    text: "Products must be in the same product line to switch.",
    operations: ["switchPlan"],
  },
  productAlreadyActive: { status: 400, text: "Product is already active.", operations: ["switchPlan"] },
  addProductsCannotSelectedPlan: {
    status: 400,
    text: "Add-on products cannot be selected for plan switching.",
    operations: ["switchPlan"],
  },
  includeByDefaultProductsCannot: {
    status: 400,
    text: "Include-by-default products cannot be selected for plan switching.",
    operations: ["switchPlan"],
  },
  subscriptionCannotSwitched: {
    status: 400,
    text: "This subscription cannot be switched.",
    operations: ["switchPlan"],
  },
  customerAlreadyOneTimePurchase: {
    status: 400,
    text: "Customer already has a one-time purchase in this product line",
  },
  priceFoundTargetProduct: { status: 400, text: "Price not found for target product.", operations: ["switchPlan"] },
  targetPriceIncludeUsdAmount: {
    status: 400,
    text: "Target price must include a USD amount.",
    operations: ["switchPlan"],
  },
  productStackableQuantity1: { status: 400, text: "This product is not stackable; quantity must be 1" },
  // domain/ops/payments/provider-subscriptions.ts
  providerCustomerNamesNoCustomer: {
    status: 400,
    text: (providerCustomerId: Arg) =>
      `Provider customer ${providerCustomerId} names no customer (metadata customerId, customerType)`,
  },
  noProviderCustomerEmulator: {
    status: 400,
    text: (providerCustomerId: Arg) => `No provider customer ${providerCustomerId} in this emulator`,
  },
  metadataProductNotObject: {
    status: 400,
    text: (what: Arg) => `The product in the ${what}'s metadata is not a JSON object`,
  },
  metadataNamesNoProduct: { status: 400, text: (what: Arg) => `The ${what}'s metadata names no product` },
  // domain/ops/payments/purchases.ts
  cannotSpecifyBothProductId: { status: 400, text: "Cannot specify both product_id and product_inline!" },
  cannotSpecifyProductInlineWhen: {
    status: 400,
    text: "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.",
  },
  specifyEitherProductIdProduct: { status: 400, text: "Must specify either product_id or product_inline!" },
  quantityGrantsMoreThan2147483647: {
    status: 400,
    text: (quantity: Arg) => `quantity ${quantity} grants more than 2147483647 of an included item`,
  },
  priceFoundProductAssociatedPurchase: {
    status: 400,
    text: "Price not found on product associated with this purchase code",
  },
  productAddProductThatCustomer: {
    status: 400,
    text: "This product is an add-on to a product that the customer does not have",
  },
  tenancyIdDoesMatchValue: { status: 400, text: "Tenancy id does not match value from code data" },
  testModeEnabledProject: {
    status: 403,
    text: "Test mode is not enabled for this project",
    operations: ["testModePurchaseSession"],
  },
  // domain/ops/payments/stripe-webhooks.ts
  unknownStripeWebhookTypeReceived: {
    status: 500,
    text: (type: Arg) => `Unknown stripe webhook type received: ${type}`,
  },
  noPaymentsAccountSetUp: {
    status: 400,
    text: (value: Arg) => `No payments account ${value} is set up in this emulator`,
    operations: ["stripeWebhook"],
  },
  nameCustomerMetadataCustomeridCustomertype: {
    status: 400,
    text: (what: Arg) => `${what} must name the customer (metadata customerId, customerType)`,
  },
  eventNamesNoAccount: { status: 400, text: "The provider's event names no account" },
  eventNamesNoCustomer: { status: 400, text: "The provider's event names no customer" },
  invoiceMayBillOneSubscription: { status: 400, text: "An invoice may bill one subscription only" },
  paymentIntentSucceededOneTime: {
    status: 400,
    text: "payment_intent.succeeded of a one-time purchase must name its id",
    operations: ["stripeWebhook"],
  },
} as const satisfies Readonly<Record<string, Refusal>>;
