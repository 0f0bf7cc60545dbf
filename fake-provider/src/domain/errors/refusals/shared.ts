import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of refusals thrown through helpers that take the refusal's id, used by several areas. */
export const sharedRefusals = {
  // Thrown through helpers that take the refusal's id (targetUser, assertClientMayManage, requireTheme/Template/Draft).
  contactChannelNotFound: { status: 404, text: "Contact channel not found." },
  contactChannelNotFoundToVerify: { status: 404, text: "Contact channel not found" },
  clientOwnContactChannelsOnly: {
    status: 403,
    text: (verb: "list" | "create" | "read" | "update" | "delete") =>
      `Client can only ${verb} contact channels for their own user.`,
  },
  clientOwnSessionsOnly: { status: 403, text: "Client can only list sessions for their own user." },
  clientListOwnConnectedAccountsOnly: {
    status: 403,
    text: "Client can only list connected accounts for their own user.",
    operations: ["listConnectedAccounts"],
  },
  clientOwnConnectedAccountsOnly: {
    status: 403,
    text: "Client can only access its own connected accounts",
    operations: ["connectedAccountToken", "connectedAccountTokenByAccount"],
  },
  ownNotificationPreferencesOnly: {
    status: 403,
    text: (verb: Arg) => `You can only ${verb} your own notification preferences`,
    operations: ["listNotificationPreferences", "updateNotificationPreference"],
  },
  clientTeamCreationDisabled: {
    status: 403,
    text: "Client team creation is disabled for this project",
    operations: ["createTeam"],
  },
  ownUserVerificationCodeOnly: {
    status: 400,
    text: "Can only send verification code for your own user",
    operations: ["sendContactChannelVerificationCode"],
  },
  clientOwnUserOnly: { status: 403, text: (what: Arg) => `Client can only manage ${what} of their own user.` },
  clientOwnSubscriptionsOnly: {
    status: 403,
    text: "Clients can only manage their own subscriptions.",
    operations: ["switchPlan"],
  },
  clientOwnProductsOnly: {
    status: 403,
    text: "Clients can only access their own user or team products.",
    operations: ["listCustomerProducts"],
  },
  clientOwnItemsOnly: {
    status: 403,
    text: "Clients can only access their own user or team items.",
    operations: ["getItem"],
  },
  clientOwnPurchaseUrlsOnly: {
    status: 403,
    text: "Clients can only create purchase URLs for their own user or teams they have admin access to.",
    operations: ["createPurchaseUrl"],
  },
  clientOwnBillingOnly: {
    status: 403,
    text: "Clients can only manage their own billing.",
    operations: ["getBilling", "listInvoices"],
  },
  clientOwnPaymentMethodOnly: {
    status: 403,
    text: "Clients can only manage their own payment method.",
    operations: ["createSetupIntent", "setDefaultPaymentMethod"],
  },
  paymentsNotSetUp: {
    status: 400,
    text: "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.",
    operations: ["createSetupIntent", "setDefaultPaymentMethod", "createPurchaseUrl"],
  },
  invalidStripeSignature: { status: 400, text: "Invalid stripe-signature header", operations: ["stripeWebhook"] },
} as const satisfies Readonly<Record<string, Refusal>>;
