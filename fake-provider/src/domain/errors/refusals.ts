import { CLI_MESSAGES, type OperationId } from "@authsim/sdk/contract";
import { StatusError } from "./known-error.ts";

/**
 * The plain-text refusals: a status and a text/plain body, not a known error. Most are the real service's own
 * StatusErrors, word for word (its route handlers throw them); the rest are the emulator's own pages' (the mock
 * identity provider, the card page, the control plane). Code throws them by id, `throw refusal("invalidCursor")`, so a
 * status and its wording are chosen here once; the fuzzer (conformance/src/fuzz/plain-text.ts) accepts exactly these
 * texts, on the operations an entry names when it names some.
 *
 * A text that depends on the request is a function of its parts; `refusalMatches` tells whether a text is the
 * refusal's with any parts.
 */

type Arg = string | number;

export interface Refusal {
  readonly status: number;
  readonly text: string | ((...args: never[]) => string);
  /** Only these operations answer it (the fuzzer's check); absent: wherever it is thrown. */
  readonly operations?: readonly OperationId[];
}

export const refusals = {
  // domain/ops/integrations/: the integrations' own StatusErrors (transfer, identity provider, Neon's admin views)
  neonProjectNotTransferable: {
    status: 400,
    text: "This project either doesn't exist or the current Neon client is not authorized to transfer it. Note that projects can only be transferred once.",
  },
  integrationProjectNotTransferable: {
    status: 400,
    text: "This project either doesn't exist or the current external project is not authorized to transfer it. Note that projects can only be transferred once.",
  },
  integrationTransferInternalOnly: { status: 400, text: "This endpoint is only available for internal projects." },
  neonTransferNotProvisioned: {
    status: 400,
    text: "The project to transfer was not provisioned by Neon or has already been transferred.",
  },
  integrationTransferNotProvisioned: {
    status: 400,
    text: "The project to transfer was not provisioned or has already been transferred.",
  },
  integrationTransferProjectMissing: { status: 400, text: "The project to transfer was not found." },
  integrationTransferAlreadyOwned: { status: 400, text: "The project to transfer has already been transferred." },
  idpInvalidAuthorizationCode: { status: 400, text: "Invalid authorization code. Please try again." },
  idpInteractionMismatch: {
    status: 400,
    text: "Different interaction UID than expected from the authorization code. Did you redirect to the correct URL?",
  },
  tooManyTrustedDomains: {
    status: 400,
    text: "This project has more than 1000 trusted domains. This is not supported. Please delete some domains to add a new one, or use wildcard domains instead.",
  },
  oauthProviderAlreadyExists: { status: 400, text: "OAuth provider already exists" },
  oauthProviderNotFound: { status: 404, text: "OAuth provider not found" },
  // api/http/parse.ts: worded as the real service's own (its session-replay batch's); the limit is the emulator's.
  requestBodyTooLarge: { status: 413, text: (limit: Arg) => `Request body too large (max ${limit} bytes)` },
  // api/auth/parse-auth.ts
  adminTokenUserGone: {
    status: 401,
    text: "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.",
  },
  // domain/ops/ai/admin-misc.ts
  messagesEmpty: { status: 400, text: "messages must not be empty", operations: ["aiChatCreate"] },
  invalidToolNamesRequest: { status: 400, text: "Invalid tool names in request.", operations: ["aiQuery"] },
  noAccessToProject: { status: 403, text: "You do not have access to this project", operations: ["aiQuery"] },
  // domain/ops/ai/image-limits.ts
  tooManyImages: { status: 400, text: (max: Arg) => `Maximum ${max} images per message.`, operations: ["aiQuery"] },
  aiImageTooLarge: {
    status: 400,
    text: (limitMb: Arg, sizeMb: Arg) => `Image exceeds ${limitMb}MB limit (${sizeMb}MB).`,
    operations: ["aiQuery"],
  },
  // domain/ops/analytics/analytics-events.ts
  refreshTokenRequiredAnalyticsEvents: { status: 400, text: "A refresh token is required for analytics events" },
  // domain/ops/projects/api-keys.ts
  apiKeysNotEnabled: { status: 400, text: (value: Arg) => `${value} API keys are not enabled for this project.` },
  clientOwnApiKeysOnly: { status: 403, text: "Client can only manage their own api keys" },
  // domain/ops/sign-in/cli-auth.ts
  invalidAnonRefreshToken: { status: 400, text: "Invalid anon refresh token", operations: ["cliCreate"] },
  providedRefreshTokenDoesBelong: {
    status: 400,
    text: "The provided refresh token does not belong to an anonymous user",
  },
  noAnonymousSessionAssociatedCode: { status: 400, text: "No anonymous session associated with this code" },
  refreshTokenRequiredWhenMode: { status: 400, text: "refresh_token is required when mode is 'complete'" },
  invalidRefreshToken: { status: 400, text: "Invalid refresh token" },
  // domain/ops/config/config-schema.ts
  configKeyNotInSchema: {
    status: 400,
    text: (value: Arg, value2: Arg) => `The key ${value} is not valid (nested object not found in schema: ${value2}).`,
  },
  configValueWrongType: {
    status: 400,
    text: (path: Arg, type: Arg, value: Arg) =>
      `${path} must be a \`${type}\` type, but the final value was: \`${value}\`.`,
  },
  configValueNotOneOf: {
    status: 400,
    text: (path: Arg, value: Arg) => `${path} must be one of the following values: ${value}`,
  },
  configValueNotObject: {
    status: 400,
    text: (path: Arg, value: Arg) => `${path} must be a \`object\` type, but the final value was: \`${value}\`.`,
  },
  configKeyHasDot: {
    status: 400,
    text: (key: Arg) => `Key ${key} contains a dot, which is not allowed in config override.`,
  },
  // domain/ops/users/contact-channels.ts
  contactChannelNotFoundToWrite: { status: 400, text: "Contact channel not found" },
  contactChannelAlreadyExists: { status: 400, text: "Contact channel already exists" },
  contactChannelFoundWasContact: { status: 400, text: "Contact channel not found. Was your contact channel deleted?" },
  // domain/ops/users/current-user.ts
  clientUserDeletionEnabledProject: {
    status: 400,
    text: "Client user deletion is not enabled for this project",
    operations: ["deleteMe"],
  },
  // domain/ops/payments/customer-products.ts
  invalidCursor: { status: 400, text: "Invalid cursor", operations: ["listCustomerProducts", "listInvoices"] },
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
  // domain/ops/emails/email-content.ts
  cannotDeleteCurrentlyActiveEmail: {
    status: 400,
    text: "Cannot delete the currently active email theme. Please select a different theme first.",
    operations: ["deleteEmailTheme"],
  },
  // domain/ops/emails/email-cron.ts
  unauthorized: {
    status: 401,
    text: "Unauthorized",
    operations: ["emailQueueStep", "failedEmailsDigest", "dbSyncPoller", "dbSyncSequencer"],
  },
  // domain/ops/db-sync/db-sync-endpoints.ts
  maxDurationMsNotPositive: {
    status: 400,
    text: "maxDurationMs must be a positive integer",
    operations: ["dbSyncPoller", "dbSyncSequencer"],
  },
  upstashSignatureRequired: { status: 400, text: "upstash-signature header is required", operations: ["dbSyncEngine"] },
  upstashSignatureInvalid: { status: 400, text: "Invalid Upstash signature", operations: ["dbSyncEngine"] },
  // domain/ops/emails/email-outbox.ts
  outboxEmailNotFound: { status: 404, text: "Email not found", operations: ["getOutboxEmail", "updateOutboxEmail"] },
  invalidLimitParameter: { status: 400, text: "Invalid limit parameter", operations: ["listOutboxEmails"] },
  limitCannotExceed: { status: 400, text: (MAX_LIMIT: Arg) => `Limit cannot exceed ${MAX_LIMIT}` },
  // domain/ops/emails/email-queue.ts
  notificationCategoryFoundName: { status: 400, text: "Notification category not found with given name" },
  // domain/ops/projects/internal-api-keys.ts
  atLeastOnePublishableClient: {
    status: 400,
    text: "At least one of has_publishable_client_key, has_secret_server_key and has_super_secret_admin_key must be true.",
  },
  // domain/ops/internal/internal-extras.ts
  endpointOnlyAvailableLocalEmulator: {
    status: 400,
    text: "This endpoint is only available in local emulator mode (set NEXT_PUBLIC_STACK_IS_LOCAL_EMULATOR=true).",
    operations: ["localEmulatorProject"],
  },
  endpointOnlyAvailablePreviewMode: {
    status: 403,
    text: "This endpoint is only available in preview mode",
    operations: ["previewCreateProject"],
  },
  // domain/ops/internal/feature-requests.ts: the emulator's own (upstream passes on its board service's error)
  featureRequestNotFound: { status: 404, text: "Feature request not found", operations: ["upvoteFeatureRequest"] },
  // domain/ops/ai/ai-conversations.ts (an unknown project is projectNotFound: upstream fails on its foreign key)
  conversationNotFound: {
    status: 404,
    text: "Conversation not found",
    operations: ["getAiConversation", "updateAiConversation", "deleteAiConversation", "replaceAiMessages"],
  },
  // domain/ops/ai/ai-proxy.ts
  aiProxyBodyNotJson: {
    status: 400,
    text: "Request body must be valid JSON",
    operations: ["aiProxyRootPost", "aiProxyPost"],
  },
  aiProxyBodyNotObject: {
    status: 400,
    text: "Request body must be a JSON object",
    operations: ["aiProxyRootPost", "aiProxyPost"],
  },
  // domain/ops/internal/mcp-review.ts: the log's own wording (upstream passes the reducer's error on as a 500)
  mcpCallLogNotFound: {
    status: 404,
    text: (correlationId: Arg) => `Call log not found for correlationId: ${correlationId}`,
    operations: ["mcpReviewDelete", "mcpReviewMarkReviewed", "mcpReviewUpdateCorrection"],
  },
  // domain/ops/teams/invitations.ts
  cannotSpecifyBothTeamId: { status: 400, text: "Cannot specify both team_id and user_id" },
  specifyEitherTeamIdUser: { status: 400, text: "Must specify either team_id or user_id" },
  // domain/ops/emails/managed-email.ts
  subdomainAlreadyExistsResendIf: {
    status: 409,
    text: "This subdomain already exists in Resend. If this is from another project, choose a different subdomain.",
    operations: ["setupManagedEmail"],
  },
  subdomainAlreadyTrackedDifferentSender: {
    status: 409,
    text: "This subdomain is already tracked with a different sender local part",
    operations: ["setupManagedEmail"],
  },
  managedDomainSetupFoundProject: {
    status: 404,
    text: "Managed domain setup not found for this project/branch",
    operations: ["checkManagedEmail"],
  },
  managedDomainFoundProjectBranch: {
    status: 404,
    text: "Managed domain not found for this project/branch",
    operations: ["applyManagedEmail", "deleteManagedEmail"],
  },
  managedDomainVerifiedYet: {
    status: 409,
    text: "Managed domain is not verified yet",
    operations: ["applyManagedEmail"],
  },
  cannotDeleteManagedDomainThat: {
    status: 409,
    text: "Cannot delete a managed domain that is currently in use for sending email",
    operations: ["deleteManagedEmail"],
  },
  // domain/ops/users/notifications.ts
  notificationCategoryFound: { status: 404, text: "Notification category not found" },
  // domain/ops/oauth/oauth-account-owners.ts
  clientOwnOAuthProvidersOnly: {
    status: 403,
    text: (verb: Arg) => `Client can only ${verb} OAuth providers for their own user.`,
    operations: ["getOAuthProvider", "updateOAuthProvider", "deleteOAuthProvider"],
  },
  clientListOwnOAuthProvidersOnly: {
    status: 403,
    text: (OAUTH_PROVIDERS: Arg) => `Client can only list ${OAUTH_PROVIDERS} for their own user.`,
    operations: ["listOAuthProviders"],
  },
  // domain/ops/oauth/oauth-accounts.ts
  oauthProviderUserFound: {
    status: 404,
    text: (accountId: Arg, id: Arg) => `OAuth provider ${accountId} for user ${id} not found`,
    operations: ["getOAuthProvider", "updateOAuthProvider", "deleteOAuthProvider"],
  },
  sameProviderTypeSignEnabled: {
    status: 400,
    text: "The same provider type with sign-in enabled already exists for this user.",
    operations: ["createOAuthProvider", "updateOAuthProvider"],
  },
  sameProviderTypeSameAccount: {
    status: 400,
    text: "The same provider type with the same account ID already exists for this user.",
    operations: ["createOAuthProvider", "updateOAuthProvider"],
  },
  oauthProviderFoundConfigured: {
    status: 404,
    text: (providerConfigId: Arg) => `OAuth provider ${providerConfigId} not found or not configured`,
    operations: ["createOAuthProvider"],
  },
  // domain/ops/oauth/oauth-authorize.ts
  accessTokenValidProject: { status: 403, text: "The access token is not valid for this project" },
  invalidRequestTransformAlgorithmSupported: {
    status: 400,
    text: (method: Arg) => `Invalid request: transform algorithm '${method}' not supported`,
    operations: ["oauthAuthorize"],
  },
  tokenQueryParameterRequiredLink: { status: 400, text: "?token= query parameter is required for link type" },
  userAccessTokenDoesExist: { status: 400, text: "The user of the access token does not exist any more." },
  // domain/ops/oauth/oauth-callback.ts
  userAccountWasLinkedNo: { status: 400, text: "The user this account was to be linked to no longer exists." },
  innerOauthCallbackFailedDue: {
    status: 400,
    text: "Inner OAuth callback failed due to invalid grant. Please try again.",
    operations: ["oauthCallbackGet", "oauthCallbackPost"],
  },
  invalidOauthStatePleaseTry: {
    status: 400,
    text: "Invalid OAuth state. Please try signing in again.",
    operations: ["oauthCallbackGet", "oauthCallbackPost"],
  },
  innerOauthCookieFoundLikely: {
    status: 400,
    text: "Inner OAuth cookie not found. This is likely because you refreshed the page during the OAuth sign in process. Please try signing in again",
  },
  // domain/ops/oauth/oauth-cross-domain.ts
  crossDomainNeedsSession: {
    status: 400,
    text: "Cross-domain auth handoff requires a refresh-token-bound session. Please sign in again.",
    operations: ["crossDomainAuthorize"],
  },
  crossDomainNeedsRefreshToken: {
    status: 400,
    text: "Cross-domain auth handoff requires passing the current refresh token.",
    operations: ["crossDomainAuthorize"],
  },
  crossDomainTokenMismatch: {
    status: 401,
    text: "Cross-domain auth handoff refresh token does not match the authenticated session.",
    operations: ["crossDomainAuthorize"],
  },
  crossDomainTokenInvalid: {
    status: 401,
    text: "Cross-domain auth handoff refresh token is not valid.",
    operations: ["crossDomainAuthorize"],
  },
  // domain/ops/oauth/oauth-idp.ts
  noOauthSignWaitingPage: { status: 404, text: "No OAuth sign-in is waiting for this page. Start again from the app." },
  accountIdEmpty: { status: 400, text: "The account id must not be empty." },
  // domain/ops/oauth/oauth-token.ts
  invalidRedirectUriRedirectUri: {
    status: 400,
    text: "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.",
  },
  // domain/ops/sign-in/otp.ts
  otpSignEnabledProject: { status: 403, text: "OTP sign-in is not enabled for this project" },
  // domain/ops/projects/owned-projects.ts
  projectOwnerTeamTransferred: { status: 400, text: "Project must have an owner team to be transferred" },
  // domain/ops/sign-in/password.ts
  userAlreadyPasswordSet: { status: 400, text: "User already has a password set.", operations: ["setPassword"] },
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
  // domain/ops/teams/permission-requests.ts
  clientListOwnPermissionsOnly: {
    status: 403,
    text: 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
    operations: ["listProjectPermissions", "listTeamPermissions"],
  },
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
  // domain/ops/users/profile-image.ts
  invalidProfileImageUrl: { status: 400, text: "Invalid profile image URL" },
  // domain/ops/storage/uploaded-images.ts: an uploaded image's checks (the real service's image processing errors)
  imageTooLarge: {
    status: 400,
    text: (size: Arg, max: Arg) => `Image size (${size} bytes) exceeds maximum allowed size (${max} bytes)`,
  },
  invalidImageFormat: { status: 400, text: "Invalid image format or corrupted image data" },
  // domain/ops/projects/project-admin.ts
  invalidEmailTheme: { status: 400, text: "Invalid email theme" },
  internalProjectCannotDeleted: { status: 400, text: "The internal project cannot be deleted." },
  // domain/ops/config/project-config.ts
  invalidConfigOverrideConfigKey: {
    status: 400,
    text: (path: Arg, bad: Arg) => `Invalid config override: ${path} is not a config key ("${bad}" is reserved).`,
  },
  invalidConfigJson: { status: 400, text: "Invalid config JSON" },
  configOverrideNonNullObject: { status: 400, text: "Config override must be a non-null object." },
  invalidConfigOverrideAuthsimCannot: {
    status: 400,
    text: (key: Arg) =>
      `Invalid config override: authsim cannot override ${key} yet; change it with PATCH /internal/projects/current or its own endpoints.`,
  },
  productSpecifiesProductLineId: {
    status: 400,
    text: (productId: Arg, productLineId: Arg) =>
      `Product "${productId}" specifies product line ID "${productLineId}", but that product line does not exist`,
  },
  productCustomerTypeButIts: {
    status: 400,
    text: (productId: Arg, value: Arg, productLineId: Arg, value2: Arg) =>
      `Product "${productId}" has customer type "${value}" but its product line "${productLineId}" has customer type "${value2}"`,
  },
  serverAccessOnlyBranchOverrides: {
    status: 403,
    text: "Server access can only manage branch config overrides.",
    operations: ["getConfigOverride", "replaceConfigOverride", "updateConfigOverrideLevel"],
  },
  sourceRequiredBranchLevelConfig: {
    status: 400,
    text: "source is required for branch level config",
    operations: ["replaceConfigOverride"],
  },
  // domain/ops/projects/project-jwks.ts
  projectNotFound: { status: 404, text: "Project not found", operations: ["jwks", "createAiConversation"] },
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
  // domain/ops/sign-in/session-list.ts
  sessionNotFound: { status: 404, text: "Session not found.", operations: ["deleteSession"] },
  // domain/ops/analytics/session-replays.ts
  refreshTokenRequiredSessionReplays: { status: 400, text: "A refresh token is required for session replays" },
  requestBodyTooLargeMax: {
    status: 413,
    text: (MAX_BODY_BYTES: Arg) => `Request body too large (max ${MAX_BODY_BYTES} bytes)`,
  },
  eventsEmpty: { status: 400, text: "events must not be empty" },
  tooManyEventsMax: {
    status: 400,
    text: (MAX_EVENTS_PER_BATCH: Arg) => `Too many events (max ${MAX_EVENTS_PER_BATCH})`,
  },
  notUuidValues: {
    status: 400,
    text: (name: Arg) => `${name} must contain valid UUID values`,
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  notNonNegativeInteger: {
    status: 400,
    text: (name: Arg) => `${name} must be a non-negative integer`,
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  notNonNegativeTimestamp: {
    status: 400,
    text: (name: Arg) => `${name} must be a non-negative timestamp in milliseconds`,
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  durationMsMinLessThan: {
    status: 400,
    text: "duration_ms_min must be less than or equal to duration_ms_max",
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
  },
  lastEventAtFromMillis: {
    status: 400,
    text: "last_event_at_from_millis must be less than or equal to last_event_at_to_millis",
    operations: [
      "listSessionReplays",
      "listSessionReplayChunks",
      "getSessionReplayChunkEvents",
      "getSessionReplayEvents",
    ],
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
  // domain/ops/teams/team-members.ts
  teamIdRequiredAccessType: { status: 400, text: "team_id is required for access type client" },
  cannotUpdateAnotherProfile: { status: 403, text: "Cannot update another user's profile" },
  // domain/ops/teams/teams.ts
  youCannotCreateTeamAs: {
    status: 403,
    text: "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
  },
  clientListOwnTeamsOnly: {
    status: 403,
    text: 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
  },
  // domain/ops/users/users.ts
  cannotSetBothPasswordPassword: {
    status: 400,
    text: "Cannot set both password and password_hash at the same time.",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  invalidPasswordHashMakeSure: {
    status: 400,
    text: "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  // domain/ops/users/users.ts: sign-in methods a create or update turns on must be on in the project.
  cannotManuallyEnablePasskey: {
    status: 400,
    text: "Cannot manually enable passkey auth, it is enabled iff there is a passkey auth method",
    operations: ["updateUser", "updateMe"],
  },
  otpAuthNotEnabledInProject: {
    status: 400,
    text: "OTP auth not enabled in the project",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  passwordAuthNotEnabledInProject: {
    status: 400,
    text: "Password auth not enabled in the project",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  primaryEmailAuthEnabledCannot: {
    status: 400,
    text: "primary_email_auth_enabled cannot be true without primary_email",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  primaryEmailVerifiedCannotTrue: {
    status: 400,
    text: "primary_email_verified cannot be true without primary_email",
    operations: ["createUser", "updateUser", "updateMe"],
  },
  onlyAnonymousTrueRequiresInclude: { status: 400, text: "only_anonymous=true requires include_anonymous=true" },
  // emulator/control/strong-auth.ts
  idpErrorNotOffered: { status: 400, text: (error: Arg) => `The error must be one the page offers, not "${error}".` },
  // emulator/mock-oauth/server.ts
  signProgressBrowserExpiredFinished: {
    status: 400,
    text: "This sign-in is not in progress in this browser (expired, finished, or started elsewhere). Start again from the app.",
  },
  onlyResponseTypeCodeSupported: { status: 400, text: "Only response_type=code is supported." },
  redirectUriMissingUrl: { status: 400, text: "redirect_uri is missing or not a URL." },
  redirectUriRegisteredClientIt: {
    status: 400,
    text: (value: Arg, clientId: Arg) =>
      `redirect_uri ${value} is not registered for client ${clientId}: it must be the emulator's callback of that provider.`,
  },
  idpWrongPrompt: { status: 400, text: (prompt: Arg, prompt2: Arg) => `This step asks for ${prompt}, not ${prompt2}.` },
  nameAccountSignLogin: { status: 400, text: "Name the account to sign in with (login)." },
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
  // domain/ops/emails/resend-webhooks.ts (the last is the emulator's own: upstream fails with an internal error)
  invalidResendWebhookSignature: {
    status: 400,
    text: "Invalid Resend webhook signature",
    operations: ["resendWebhook"],
  },
  invalidResendWebhookJson: {
    status: 400,
    text: "Invalid JSON payload in Resend webhook",
    operations: ["resendWebhook"],
  },
  resendWebhookMissingDomainFields: {
    status: 400,
    text: "Resend webhook payload missing required domain fields",
    operations: ["resendWebhook"],
  },
  invalidCliLoginCode: { status: 400, text: CLI_MESSAGES.invalidLoginCode, operations: ["cliComplete"] },
  subdomainNotFullyQualified: {
    status: 400,
    text: "subdomain must be a fully-qualified domain name like mail.example.com",
    operations: ["setupManagedEmail", "checkManagedEmail"],
  },
  invalidSenderLocalPart: {
    status: 400,
    text: "sender_local_part is invalid",
    operations: ["setupManagedEmail", "checkManagedEmail"],
  },
  themeNotFound: {
    status: 404,
    text: "No theme found with given id",
    operations: ["getEmailTheme", "updateEmailTheme", "deleteEmailTheme"],
  },
  themeNotFoundToRender: { status: 400, text: "No theme found with given id", operations: ["renderEmail"] },
  templateNotFound: {
    status: 404,
    text: "No template found with given id",
    operations: ["updateEmailTemplate", "deleteEmailTemplate"],
  },
  templateNotFoundToRender: { status: 400, text: "No template found with given id", operations: ["renderEmail"] },
  templateNotFoundToSend: { status: 400, text: "No template found with given template_id", operations: ["sendEmail"] },
  defaultTemplateNotFound: { status: 400, text: (templateId: Arg) => `Default email template ${templateId} not found` },
  draftNotFound: {
    status: 404,
    text: "No draft found with given id",
    operations: ["getEmailDraft", "updateEmailDraft", "deleteEmailDraft"],
  },
  draftNotFoundToSend: { status: 400, text: "No draft found with given draft_id", operations: ["sendEmail"] },
} as const satisfies Readonly<Record<string, Refusal>>;

export type RefusalId = keyof typeof refusals;
/** The parts a refusal's text is made of: none for a fixed text. */
export type RefusalArgs<Id extends RefusalId> = (typeof refusals)[Id]["text"] extends (...args: infer A) => string
  ? A
  : [];

/** The refusal with this id, as the error an operation throws. */
export function refusal<Id extends RefusalId>(id: Id, ...args: RefusalArgs<Id>): StatusError {
  const entry: Refusal = refusals[id];
  return new StatusError(
    entry.status,
    typeof entry.text === "string"
      ? entry.text
      : (entry.text as (...parts: readonly Arg[]) => string)(...(args as readonly Arg[])),
  );
}

// A part no text holds, to find where a text's parts go.
const PART = "\uE000";

/** Whether `text` is this refusal's text, with any parts (a part may be empty: a value the request gave as ""). */
export function refusalMatches(entry: Refusal, text: string): boolean {
  if (typeof entry.text === "string") return entry.text === text;
  const parts = Array.from({ length: entry.text.length }, () => PART);
  const template = (entry.text as (...parts: readonly Arg[]) => string)(...parts);
  const pattern = template
    .split(PART)
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[\\s\\S]*");
  return new RegExp(`^${pattern}$`).test(text);
}
