/**
 * The plain-text (non-known-error) 4xx answers the fuzzer accepts. The first list is what protocol.md documents
 * (§1, §2.3 step 7, §3.2 notes, §4.1, §6.3). The second is what areas of the fake answer today that protocol.md does
 * not mention. Several are upstream's own StatusErrors (the api-keys 403, "Contact channel not found.", the OTP 403 are
 * in the stack-auth source); the rest await the same check. They belong in protocol.md's list of plain StatusErrors.
 * A plain text outside both lists fails the fuzz suite: the wire either has it documented or it is a known error.
 */
interface PlainText {
  status: number;
  text: string | RegExp;
  /** Only on these operations (all when absent). */
  operations?: readonly string[];
}

export const protocolPlainTexts: readonly PlainText[] = [
  { status: 404, text: /^404 — this page does not exist in Stack Auth's API\.\n\nPlease see the API documentation/ },
  { status: 405, text: "Method not allowed" },
  { status: 404, text: "Project not found", operations: ["jwks"] },
  { status: 401, text: "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again." },
  { status: 401, text: "Invalid development key override" },
  { status: 400, text: "Client user deletion is not enabled for this project", operations: ["deleteMe"] },
  { status: 400, text: /^Cannot use both creator_user_id and add_current_user\./, operations: ["createTeam"] },
];

export const undocumentedAreaPlainTexts: readonly PlainText[] = [
  // Users, teams and invitations: upstream's own StatusErrors (stack-auth source, users/, teams/, team-invitations/).
  // No operation filter: the fuzzer also sends other methods to these paths, which the same route answers.
  { status: 400, text: "Invalid profile image URL" },
  { status: 400, text: "Invalid email theme" },
  { status: 400, text: "only_anonymous=true requires include_anonymous=true" },
  { status: 400, text: "team_id is required for access type client" },
  { status: 403, text: "Cannot update another user's profile" },
  { status: 400, text: "Contact channel not found" },
  { status: 404, text: "Contact channel not found" },
  { status: 403, text: /^Client can only (list|create|read|update|delete) contact channels for their own user\.$/ },
  { status: 403, text: "Client can only list sessions for their own user." },
  { status: 400, text: /^(Cannot specify both team_id and user_id|Must specify either team_id or user_id)$/ },
  { status: 403, text: "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'." },
  { status: 403, text: 'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user' },
  { status: 404, text: "Contact channel not found." },
  { status: 400, text: "Contact channel already exists" },
  { status: 400, text: "Contact channel not found. Was your contact channel deleted?" },
  { status: 404, text: "Session not found.", operations: ["deleteSession"] },
  { status: 400, text: /^(User|Team) API keys are not enabled for this project\.$/ },
  { status: 403, text: "Client can only manage their own api keys" },
  { status: 403, text: /^Client can only manage .+ of their own user\.$/ },
  { status: 400, text: "At least one of has_publishable_client_key, has_secret_server_key and has_super_secret_admin_key must be true." },
  { status: 403, text: "OTP sign-in is not enabled for this project" },
  { status: 404, text: "Notification category not found" },
  { status: 400, text: "User already has a password set.", operations: ["setPassword"] },
  { status: 400, text: "Stripe account ID is not set" },
  // Upstream's AI query refusals (its ai/query route).
  { status: 400, text: "Invalid tool names in request.", operations: ["aiQuery"] },
  { status: 403, text: "You do not have access to this project", operations: ["aiQuery"] },
  // Upstream's refusal outside its local-emulator mode (its internal/local-emulator/project route).
  { status: 400, text: "This endpoint is only available in local emulator mode (set NEXT_PUBLIC_STACK_IS_LOCAL_EMULATOR=true).", operations: ["localEmulatorProject"] },
  // Payments: upstream's own StatusErrors (stack-auth source, lib/payments and the payments routes).
  { status: 400, text: "Price not found on product associated with this purchase code" },
  { status: 400, text: "This product is not stackable; quantity must be 1" },
  { status: 400, text: "This product is an add-on to a product that the customer does not have" },
  { status: 400, text: "Customer already has a one-time purchase in this product line" },
  { status: 400, text: "Customer does not have this product.", operations: ["cancelProduct"] },
  { status: 400, text: "This product is a one time purchase and cannot be canceled.", operations: ["cancelProduct"] },
  { status: 400, text: "No active subscription found with this ID for the given customer.", operations: ["cancelProduct"] },
  { status: 403, text: "Clients can only cancel their own subscriptions.", operations: ["cancelProduct"] },
  { status: 403, text: "Clients can only cancel user or team subscriptions they control.", operations: ["cancelProduct"] },
  { status: 403, text: "Clients can only manage their own billing.", operations: ["getBilling", "listInvoices"] },
  { status: 403, text: "Clients can only manage their own payment method.", operations: ["createSetupIntent", "setDefaultPaymentMethod"] },
  { status: 400, text: /^Payments are not set up in this Stack Auth project\./, operations: ["createSetupIntent", "setDefaultPaymentMethod", "createPurchaseUrl"] },
  { status: 403, text: "Setup intent does not belong to this customer.", operations: ["setDefaultPaymentMethod"] },
  { status: 400, text: "Setup intent has not succeeded.", operations: ["setDefaultPaymentMethod"] },
  // The payment provider's refusal of an intent it never made (upstream lets it through as a 500; the emulator answers the provider's 404).
  { status: 404, text: /^No such setupintent: '/, operations: ["setDefaultPaymentMethod"] },
  { status: 403, text: "Clients can only access their own user or team products.", operations: ["listCustomerProducts"] },
  { status: 400, text: "Invalid cursor", operations: ["listCustomerProducts", "listInvoices"] },
  { status: 403, text: "Test mode is not enabled for this project", operations: ["testModePurchaseSession"] },
  { status: 403, text: "Clients can only create purchase URLs for their own user or teams they have admin access to.", operations: ["createPurchaseUrl"] },
  { status: 400, text: "Must specify either product_id or product_inline!" },
  { status: 400, text: "Cannot specify both product_id and product_inline!" },
  { status: 400, text: "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter." },
  { status: 400, text: /^No payment method configuration .+ on this account$/, operations: ["updatePaymentMethodConfigs"] },
  // Plan switches: upstream's own StatusErrors (its payments/products/.../switch route).
  {
    status: 400,
    text: /^(Product not found\.|Product customer type does not match\.|Products must be in the same product line to switch\.|Product is already active\.|Add-on products cannot be selected for plan switching\.|Include-by-default products cannot be selected for plan switching\.|This subscription cannot be switched\.|Price not found for target product\.|Target price must include a USD amount\.)$/,
    operations: ["switchPlan"],
  },
  { status: 403, text: "Clients can only manage their own subscriptions.", operations: ["switchPlan"] },
  // Payment-provider webhooks: upstream's signature refusal; what the emulator cannot serve without a provider (ops/stripe-webhooks.ts).
  { status: 400, text: "Invalid stripe-signature header", operations: ["stripeWebhook"] },
  { status: 400, text: /^(Unknown stripe webhook type received: |Stripe event .+ is not emulated: )/s, operations: ["stripeWebhook"] },
  { status: 400, text: /^(No payments account .+ is set up in this emulator|payment_intent\.succeeded of a one-time purchase must name .+|The (product in the payment intent's metadata is not a JSON object|payment intent's metadata names no product))$/s, operations: ["stripeWebhook"] },
  // Config overrides: upstream's own StatusErrors (its config override routes and config schema checks).
  { status: 400, text: "Invalid config JSON" },
  { status: 400, text: "Config override must be a non-null object." },
  { status: 400, text: "source is required for branch level config", operations: ["replaceConfigOverride"] },
  { status: 400, text: /^The key ".+" is not valid \(nested object not found in schema: ".+"\)\.$/s },
  { status: 400, text: /^Key .+ contains a dot, which is not allowed in config override\.$/s },
  { status: 400, text: /^.+ must be (a `\w+` type, but the final value was: .+|one of the following values: .+)$/s },
  { status: 400, text: /^Product ".+" (specifies product line ID ".+", but that product line does not exist|has customer type ".+" but its product line ".+" has customer type ".+")$/s },
  { status: 400, text: /^Invalid config override: /s },
  // The email outbox and its unsubscribe link (upstream's emails/outbox and emails/unsubscribe-link routes).
  { status: 404, text: "Email not found", operations: ["getOutboxEmail", "updateOutboxEmail"] },
  { status: 400, text: "Invalid code", operations: ["unsubscribeLink"] },
  { status: 400, text: "Tenancy id does not match value from code data" },
  // OAuth (upstream's own StatusError, seen in the stack-auth source).
  // The OAuth library's words for a PKCE method it cannot verify (ops/oauth-authorize.ts says why it comes up front).
  { status: 400, text: /^Invalid request: transform algorithm '.*' not supported$/s, operations: ["oauthAuthorize"] },
  { status: 400, text: /^Inner OAuth cookie not found\. This is likely because you refreshed the page during the OAuth sign in process\./ },
  { status: 400, text: "Invalid OAuth state. Please try signing in again.", operations: ["oauthCallbackGet", "oauthCallbackPost"] },
  { status: 400, text: "Inner OAuth callback failed due to invalid grant. Please try again.", operations: ["oauthCallbackGet", "oauthCallbackPost"] },
  // The cross-domain session handoff (upstream's auth/oauth/cross-domain/authorize route).
  { status: 400, text: /^Cross-domain auth handoff requires (a refresh-token-bound session\. Please sign in again|passing the current refresh token)\.$/, operations: ["crossDomainAuthorize"] },
  { status: 401, text: /^Cross-domain auth handoff refresh token (does not match the authenticated session|is not valid)\.$/, operations: ["crossDomainAuthorize"] },
  // CLI login: a login code that is not pending (upstream's auth/cli/complete route).
  { status: 400, text: "Invalid login code or the code has expired", operations: ["cliComplete"] },
  // OAuth provider links (upstream's oauth-providers CRUD).
  { status: 404, text: /^OAuth provider .+ for user .+ not found$/s, operations: ["getOAuthProvider", "updateOAuthProvider", "deleteOAuthProvider"] },
  { status: 404, text: /^OAuth provider .+ not found or not configured$/s, operations: ["createOAuthProvider"] },
  { status: 403, text: /^Client can only (read|update|delete) OAuth providers for their own user\.$/, operations: ["getOAuthProvider", "updateOAuthProvider", "deleteOAuthProvider"] },
  { status: 403, text: "Client can only list OAuth providers for their own user.", operations: ["listOAuthProviders"] },
  { status: 403, text: "Client can only list connected accounts for their own user.", operations: ["listConnectedAccounts"] },
  { status: 403, text: "Client can only access its own connected accounts", operations: ["connectedAccountToken", "connectedAccountTokenByAccount"] },
  { status: 400, text: /^The same provider type with (sign-in enabled|the same account ID) already exists for this user\.$/, operations: ["createOAuthProvider", "updateOAuthProvider"] },
  { status: 403, text: 'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user', operations: ["listProjectPermissions", "listTeamPermissions"] },
  { status: 400, text: "Cannot set both password and password_hash at the same time.", operations: ["createUser", "updateUser", "updateMe"] },
  { status: 400, text: "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.", operations: ["createUser", "updateUser", "updateMe"] },
  { status: 400, text: /^quantity \d+ grants more than 2147483647 of an included item$/ },
  // Email templates, themes and drafts (upstream's internal/email-* and emails/* routes): missing ones are a 404 on their
  // own routes and a 400 where rendering or sending names them.
  { status: 404, text: "No theme found with given id", operations: ["getEmailTheme", "updateEmailTheme", "deleteEmailTheme"] },
  { status: 400, text: "No theme found with given id", operations: ["renderEmail"] },
  { status: 400, text: "Cannot delete the currently active email theme. Please select a different theme first.", operations: ["deleteEmailTheme"] },
  { status: 404, text: "No template found with given id", operations: ["updateEmailTemplate", "deleteEmailTemplate"] },
  { status: 400, text: "No template found with given id", operations: ["renderEmail"] },
  { status: 400, text: "No template found with given template_id", operations: ["sendEmail"] },
  { status: 404, text: "No draft found with given id", operations: ["getEmailDraft", "updateEmailDraft", "deleteEmailDraft"] },
  { status: 400, text: "No draft found with given draft_id", operations: ["sendEmail"] },
  // A user without a primary email (upstream's users CRUD).
  { status: 400, text: /^primary_email_(verified|auth_enabled) cannot be true without primary_email$/, operations: ["createUser", "updateUser", "updateMe"] },
  // The cron endpoints' bearer secret (upstream's internal/email-queue-step and internal/failed-emails-digest).
  { status: 401, text: "Unauthorized", operations: ["emailQueueStep", "failedEmailsDigest"] },
  // Reached since the fuzzer draws every operation's query and body from its contract definition (sdk/src/contract/areas/<area>.ts):
  // upstream's own StatusErrors (its auth/cli route, emails/outbox CRUD and internal/session-replays route).
  { status: 400, text: "Invalid anon refresh token", operations: ["cliCreate"] },
  { status: 400, text: "Invalid limit parameter", operations: ["listOutboxEmails"] },
  {
    status: 400,
    text: /^(\w+ must (contain valid UUID values|be a non-negative integer|be a non-negative timestamp in milliseconds)|duration_ms_min must be less than or equal to duration_ms_max|last_event_at_from_millis must be less than or equal to last_event_at_to_millis)$/,
    operations: ["listSessionReplays", "listSessionReplayChunks", "getSessionReplayChunkEvents", "getSessionReplayEvents"],
  },
  // Managed email onboarding: upstream's own StatusErrors (its lib/managed-email-onboarding; ops/managed-email.ts).
  { status: 400, text: /^(subdomain must be a fully-qualified domain name like mail\.example\.com|sender_local_part is invalid)$/, operations: ["setupManagedEmail", "checkManagedEmail"] },
  { status: 409, text: /^(This subdomain is already tracked with a different sender local part|This subdomain already exists in Resend\. If this is from another project, choose a different subdomain\.)$/, operations: ["setupManagedEmail"] },
  { status: 404, text: "Managed domain setup not found for this project/branch", operations: ["checkManagedEmail"] },
  { status: 404, text: "Managed domain not found for this project/branch", operations: ["applyManagedEmail", "deleteManagedEmail"] },
  { status: 409, text: "Cannot delete a managed domain that is currently in use for sending email", operations: ["deleteManagedEmail"] },
  { status: 409, text: "Managed domain is not verified yet", operations: ["applyManagedEmail"] },
  // authsim's own refusal: upstream's internal/ai-chat/[threadId] route serves PATCH and GET only, so there is no real
  // answer to compare with (ops/admin-misc.ts chatCreate).
  { status: 400, text: "messages must not be empty", operations: ["aiChatCreate"] },
];

export function plainTextAllowed(operationId: string, status: number, text: string): boolean {
  return [...protocolPlainTexts, ...undocumentedAreaPlainTexts].some(
    (p) => p.status === status && (!p.operations || p.operations.includes(operationId)) && (typeof p.text === "string" ? p.text === text : p.text.test(text)),
  );
}
