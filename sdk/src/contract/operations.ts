import type { OperationRequest } from "./request-kinds.ts";
import type { OperationResponse } from "./response-kinds.ts";

/**
 * Every operation of the /api/v1 contract (protocol.md §6, spec §7): id, method, path, who may call it, what it
 * accepts (requests.ts) and what it answers (responses.ts). The fake provider registers a handler per id; an id without one answers 501 with a clear
 * body, never a silent 404. `access`: "none" needs no project authentication; "client" means client, server or admin
 * ("C+"); "server" means server or admin; "admin" admin only. Paths use `:name` parameters and are relative to /api/v1.
 */
export type OperationAccess = "none" | "client" | "server" | "admin";
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Operation {
  readonly id: OperationId;
  readonly method: HttpMethod;
  readonly path: string;
  readonly access: OperationAccess;
  /** The area file that holds its schemas, in the SDK contract and in the fake provider. */
  readonly area: string;
  /** What it accepts (params, query, body) and the known errors it may answer (requests.ts). */
  readonly request: OperationRequest;
  /** What it answers unless it refuses with a known error, one entry per status (responses.ts). */
  readonly responses: readonly OperationResponse[];
}

// `Id` keeps each id's literal type, so `OperationId` is the union of them and requests.ts and responses.ts are checked
// against it; `Access` keeps each access, so a route's handler knows whether its caller may be unauthenticated.
const op = <Id extends string, Access extends OperationAccess>(area: string, id: Id, method: HttpMethod, path: string, access: Access) => ({ id, method, path, access, area });

/** The operations without their requests and answers; operation-list.ts joins each with its entries in requests.ts and responses.ts. */
export const operationTable = [
  // Root and meta (§6.1)
  op("meta", "root", "GET", "/", "none"),
  op("meta", "backendUrls", "GET", "/internal/backend-urls", "none"),
  op("meta", "checkFeatureSupport", "POST", "/check-feature-support", "none"),
  // POST, as upstream serves it (protocol.md §6.1 says GET; the A26 route exports only POST): areas/meta.ts.
  op("meta", "checkVersion", "POST", "/check-version", "none"),
  op("meta", "jwks", "GET", "/projects/:project_id/.well-known/jwks.json", "none"),
  // Auth (§6.2)
  op("sessions", "passwordSignUp", "POST", "/auth/password/sign-up", "client"),
  op("sessions", "passwordSignIn", "POST", "/auth/password/sign-in", "client"),
  op("sessions", "anonymousSignUp", "POST", "/auth/anonymous/sign-up", "client"),
  op("password", "sendResetCode", "POST", "/auth/password/send-reset-code", "client"),
  op("password", "resetPassword", "POST", "/auth/password/reset", "client"),
  op("password", "checkResetCode", "POST", "/auth/password/reset/check-code", "client"),
  op("password", "updatePassword", "POST", "/auth/password/update", "client"),
  op("password", "setPassword", "POST", "/auth/password/set", "client"),
  op("otp", "sendSignInCode", "POST", "/auth/otp/send-sign-in-code", "client"),
  op("otp", "otpSignIn", "POST", "/auth/otp/sign-in", "client"),
  op("otp", "otpCheckCode", "POST", "/auth/otp/sign-in/check-code", "client"),
  op("mfa", "mfaSignIn", "POST", "/auth/mfa/sign-in", "client"),
  op("passkeys", "initiatePasskeyRegistration", "POST", "/auth/passkey/initiate-passkey-registration", "client"),
  op("passkeys", "registerPasskey", "POST", "/auth/passkey/register", "client"),
  op("passkeys", "initiatePasskeyAuthentication", "POST", "/auth/passkey/initiate-passkey-authentication", "client"),
  op("passkeys", "passkeySignIn", "POST", "/auth/passkey/sign-in", "client"),
  op("oauth", "oauthAuthorize", "GET", "/auth/oauth/authorize/:provider_id", "none"),
  op("oauth", "oauthCallbackGet", "GET", "/auth/oauth/callback/:provider_id", "none"),
  op("oauth", "oauthCallbackPost", "POST", "/auth/oauth/callback/:provider_id", "none"),
  op("oauth", "appleNativeSignIn", "POST", "/auth/oauth/callback/apple/native", "client"),
  op("oauth", "crossDomainAuthorize", "POST", "/auth/oauth/cross-domain/authorize", "client"),
  op("sessions", "oauthToken", "POST", "/auth/oauth/token", "none"),
  op("oauth", "legacyConnectedAccountToken", "GET", "/auth/oauth/connected-accounts/:provider_id/access-token", "client"),
  op("sessions", "createSession", "POST", "/auth/sessions", "server"),
  op("sessions", "listSessions", "GET", "/auth/sessions", "client"),
  op("sessions", "deleteCurrentSession", "DELETE", "/auth/sessions/current", "client"),
  op("sessions", "refreshCurrentSession", "POST", "/auth/sessions/current/refresh", "client"),
  op("sessions", "deleteSession", "DELETE", "/auth/sessions/:session_id", "client"),
  op("cli", "cliCreate", "POST", "/auth/cli", "client"),
  op("cli", "cliPoll", "POST", "/auth/cli/poll", "client"),
  op("cli", "cliComplete", "POST", "/auth/cli/complete", "client"),
  // Users and contact channels (§6.3)
  op("users", "getMe", "GET", "/users/me", "client"),
  op("users", "updateMe", "PATCH", "/users/me", "client"),
  op("users", "deleteMe", "DELETE", "/users/me", "client"),
  op("users", "listUsers", "GET", "/users", "server"),
  op("users", "createUser", "POST", "/users", "server"),
  op("users", "getUser", "GET", "/users/:user_id", "server"),
  op("users", "updateUser", "PATCH", "/users/:user_id", "server"),
  op("users", "deleteUser", "DELETE", "/users/:user_id", "server"),
  op("contact-channels", "listContactChannels", "GET", "/contact-channels", "client"),
  op("contact-channels", "createContactChannel", "POST", "/contact-channels", "client"),
  op("contact-channels", "sendVerificationCodeLegacy", "POST", "/contact-channels/send-verification-code", "client"),
  op("contact-channels", "verifyContactChannel", "POST", "/contact-channels/verify", "client"),
  op("contact-channels", "checkContactChannelCode", "POST", "/contact-channels/verify/check-code", "client"),
  op("contact-channels", "getContactChannel", "GET", "/contact-channels/:user_id/:channel_id", "client"),
  op("contact-channels", "updateContactChannel", "PATCH", "/contact-channels/:user_id/:channel_id", "client"),
  op("contact-channels", "deleteContactChannel", "DELETE", "/contact-channels/:user_id/:channel_id", "client"),
  op("contact-channels", "sendContactChannelVerificationCode", "POST", "/contact-channels/:user_id/:channel_id/send-verification-code", "client"),
  op("oauth-providers", "listOAuthProviders", "GET", "/oauth-providers", "client"),
  op("oauth-providers", "createOAuthProvider", "POST", "/oauth-providers", "server"),
  op("oauth-providers", "getOAuthProvider", "GET", "/oauth-providers/:user_id/:provider_id", "client"),
  op("oauth-providers", "updateOAuthProvider", "PATCH", "/oauth-providers/:user_id/:provider_id", "client"),
  op("oauth-providers", "deleteOAuthProvider", "DELETE", "/oauth-providers/:user_id/:provider_id", "client"),
  op("oauth-providers", "listConnectedAccounts", "GET", "/connected-accounts/:user_id", "client"),
  op("oauth-providers", "connectedAccountToken", "POST", "/connected-accounts/:user_id/:provider_id/access-token", "client"),
  op("oauth-providers", "connectedAccountTokenByAccount", "POST", "/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token", "client"),
  op("notifications", "listNotificationPreferences", "GET", "/emails/notification-preference/:user_id", "client"),
  op("notifications", "updateNotificationPreference", "PATCH", "/emails/notification-preference/:user_id/:category_id", "client"),
  op("api-keys", "listUserApiKeys", "GET", "/user-api-keys", "client"),
  op("api-keys", "createUserApiKey", "POST", "/user-api-keys", "client"),
  op("api-keys", "checkUserApiKey", "POST", "/user-api-keys/check", "client"),
  op("api-keys", "getUserApiKey", "GET", "/user-api-keys/:api_key_id", "client"),
  op("api-keys", "updateUserApiKey", "PATCH", "/user-api-keys/:api_key_id", "client"),
  op("api-keys", "listTeamApiKeys", "GET", "/team-api-keys", "client"),
  op("api-keys", "createTeamApiKey", "POST", "/team-api-keys", "client"),
  op("api-keys", "checkTeamApiKey", "POST", "/team-api-keys/check", "client"),
  op("api-keys", "getTeamApiKey", "GET", "/team-api-keys/:api_key_id", "client"),
  op("api-keys", "updateTeamApiKey", "PATCH", "/team-api-keys/:api_key_id", "client"),
  op("data-vault", "dataVaultGet", "POST", "/data-vault/stores/:store_id/get", "server"),
  op("data-vault", "dataVaultSet", "POST", "/data-vault/stores/:store_id/set", "server"),
  // Teams (§6.4)
  op("teams", "listTeams", "GET", "/teams", "client"),
  op("teams", "createTeam", "POST", "/teams", "client"),
  op("teams", "getTeam", "GET", "/teams/:team_id", "client"),
  op("teams", "updateTeam", "PATCH", "/teams/:team_id", "client"),
  op("teams", "deleteTeam", "DELETE", "/teams/:team_id", "client"),
  op("teams", "addTeamMember", "POST", "/team-memberships/:team_id/:user_id", "server"),
  op("teams", "removeTeamMember", "DELETE", "/team-memberships/:team_id/:user_id", "client"),
  op("teams", "listTeamMemberProfiles", "GET", "/team-member-profiles", "client"),
  op("teams", "getTeamMemberProfile", "GET", "/team-member-profiles/:team_id/:user_id", "client"),
  op("teams", "updateTeamMemberProfile", "PATCH", "/team-member-profiles/:team_id/:user_id", "client"),
  op("permissions", "listTeamPermissions", "GET", "/team-permissions", "client"),
  op("permissions", "grantTeamPermission", "POST", "/team-permissions/:team_id/:user_id/:permission_id", "server"),
  op("permissions", "revokeTeamPermission", "DELETE", "/team-permissions/:team_id/:user_id/:permission_id", "server"),
  op("permissions", "listProjectPermissions", "GET", "/project-permissions", "client"),
  op("permissions", "grantProjectPermission", "POST", "/project-permissions/:user_id/:permission_id", "server"),
  op("permissions", "revokeProjectPermission", "DELETE", "/project-permissions/:user_id/:permission_id", "server"),
  op("permissions", "listTeamPermissionDefinitions", "GET", "/team-permission-definitions", "admin"),
  op("permissions", "createTeamPermissionDefinition", "POST", "/team-permission-definitions", "admin"),
  op("permissions", "updateTeamPermissionDefinition", "PATCH", "/team-permission-definitions/:permission_id", "admin"),
  op("permissions", "deleteTeamPermissionDefinition", "DELETE", "/team-permission-definitions/:permission_id", "admin"),
  op("permissions", "listProjectPermissionDefinitions", "GET", "/project-permission-definitions", "admin"),
  op("permissions", "createProjectPermissionDefinition", "POST", "/project-permission-definitions", "admin"),
  op("permissions", "updateProjectPermissionDefinition", "PATCH", "/project-permission-definitions/:permission_id", "admin"),
  op("permissions", "deleteProjectPermissionDefinition", "DELETE", "/project-permission-definitions/:permission_id", "admin"),
  op("invitations", "listTeamInvitations", "GET", "/team-invitations", "client"),
  op("invitations", "sendTeamInvitation", "POST", "/team-invitations/send-code", "client"),
  op("invitations", "acceptTeamInvitation", "POST", "/team-invitations/accept", "client"),
  op("invitations", "checkTeamInvitationCode", "POST", "/team-invitations/accept/check-code", "client"),
  op("invitations", "teamInvitationDetails", "POST", "/team-invitations/accept/details", "client"),
  op("invitations", "acceptTeamInvitationById", "POST", "/team-invitations/:invitation_id/accept", "client"),
  op("invitations", "revokeTeamInvitation", "DELETE", "/team-invitations/:invitation_id", "client"),
  // Projects and admin (§6.5, §5.12–5.14)
  op("projects", "getCurrentProject", "GET", "/projects/current", "client"),
  op("projects", "getAdminProject", "GET", "/internal/projects/current", "admin"),
  op("projects", "updateAdminProject", "PATCH", "/internal/projects/current", "admin"),
  op("projects", "deleteAdminProject", "DELETE", "/internal/projects/current", "admin"),
  op("projects", "listOwnedProjects", "GET", "/internal/projects", "client"),
  op("projects", "createOwnedProject", "POST", "/internal/projects", "client"),
  op("projects", "transferProject", "POST", "/internal/projects/transfer", "client"),
  op("internal-api-keys", "listInternalApiKeys", "GET", "/internal/api-keys", "admin"),
  op("internal-api-keys", "createInternalApiKey", "POST", "/internal/api-keys", "admin"),
  op("internal-api-keys", "getInternalApiKey", "GET", "/internal/api-keys/:api_key_id", "admin"),
  op("internal-api-keys", "updateInternalApiKey", "PATCH", "/internal/api-keys/:api_key_id", "admin"),
  op("config", "getConfig", "GET", "/internal/config", "admin"),
  op("config", "getConfigOverride", "GET", "/internal/config/override/:level", "admin"),
  op("config", "updateConfigOverride", "PATCH", "/internal/config/override", "admin"),
  op("config", "replaceConfigOverride", "PUT", "/internal/config/override/:level", "admin"),
  // What the published SDK sends for updateConfig (level "environment") and requirePublishableClientKey ("project").
  op("config", "updateConfigOverrideLevel", "PATCH", "/internal/config/override/:level", "admin"),
  op("config", "getConfigSource", "GET", "/internal/config/source", "admin"),
  op("config", "unlinkConfigSource", "DELETE", "/internal/config/source", "admin"),
  op("config", "resetConfigOverrideKeys", "POST", "/internal/config/override/:level/reset-keys", "admin"),
  op("sign-up-rules", "testSignUpRules", "POST", "/internal/sign-up-rules-test", "admin"),
  op("sign-up-rules", "signUpRulesStats", "GET", "/internal/sign-up-rules-stats", "admin"),
  op("webhooks", "svixToken", "POST", "/webhooks/svix-token", "admin"),
  op("metrics", "metrics", "GET", "/internal/metrics", "admin"),
  op("emails", "sendTestEmail", "POST", "/internal/send-test-email", "admin"),
  op("emails", "listSentEmails", "GET", "/internal/emails", "admin"),
  op("emails", "sendSignInInvitation", "POST", "/internal/send-sign-in-invitation", "admin"),
  op("emails", "listEmailTemplates", "GET", "/internal/email-templates", "admin"),
  op("emails", "createEmailTemplate", "POST", "/internal/email-templates", "admin"),
  op("emails", "updateEmailTemplate", "PATCH", "/internal/email-templates/:template_id", "admin"),
  op("emails", "deleteEmailTemplate", "DELETE", "/internal/email-templates/:template_id", "admin"),
  op("emails", "listEmailThemes", "GET", "/internal/email-themes", "admin"),
  op("emails", "createEmailTheme", "POST", "/internal/email-themes", "admin"),
  op("emails", "getEmailTheme", "GET", "/internal/email-themes/:theme_id", "admin"),
  op("emails", "updateEmailTheme", "PATCH", "/internal/email-themes/:theme_id", "admin"),
  op("emails", "deleteEmailTheme", "DELETE", "/internal/email-themes/:theme_id", "admin"),
  op("emails", "listEmailDrafts", "GET", "/internal/email-drafts", "admin"),
  op("emails", "createEmailDraft", "POST", "/internal/email-drafts", "admin"),
  op("emails", "updateEmailDraft", "PATCH", "/internal/email-drafts/:draft_id", "admin"),
  op("emails", "deleteEmailDraft", "DELETE", "/internal/email-drafts/:draft_id", "admin"),
  op("emails", "renderEmail", "POST", "/emails/render-email", "admin"),
  op("emails", "sendEmail", "POST", "/emails/send-email", "server"),
  op("emails", "emailDeliveryInfo", "GET", "/emails/delivery-info", "server"),
  op("emails", "listOutboxEmails", "GET", "/emails/outbox", "server"),
  op("emails", "getOutboxEmail", "GET", "/emails/outbox/:id", "server"),
  op("emails", "updateOutboxEmail", "PATCH", "/emails/outbox/:id", "server"),
  op("emails", "activateCapacityBoost", "POST", "/emails/capacity-boost", "server"),
  op("emails", "unsubscribeLink", "GET", "/emails/unsubscribe-link", "none"),
  op("emails", "getEmailDraft", "GET", "/internal/email-drafts/:draft_id", "admin"),
  op("emails", "rewriteTemplateSource", "POST", "/internal/rewrite-template-source", "admin"),
  // Managed email onboarding: a sending subdomain set up, verified and applied as the email server (areas/managed-email.ts).
  op("managed-email", "setupManagedEmail", "POST", "/internal/emails/managed-onboarding/setup", "admin"),
  op("managed-email", "listManagedEmailDomains", "GET", "/internal/emails/managed-onboarding/list", "admin"),
  op("managed-email", "checkManagedEmail", "POST", "/internal/emails/managed-onboarding/check", "admin"),
  op("managed-email", "applyManagedEmail", "POST", "/internal/emails/managed-onboarding/apply", "admin"),
  op("managed-email", "deleteManagedEmail", "POST", "/internal/emails/managed-onboarding/delete", "admin"),
  // Who an onboarding requirement would restrict, before an admin turns it on (areas/onboarding.ts).
  op("onboarding", "previewAffectedUsers", "POST", "/internal/onboarding/preview-affected-users", "admin"),
  // The real service's cron endpoints: a bearer CRON_SECRET, no project (ops/email-cron.ts).
  op("emails", "emailQueueStep", "GET", "/internal/email-queue-step", "none"),
  op("emails", "failedEmailsDigest", "POST", "/internal/failed-emails-digest", "none"),
  // Small internal routes of the dashboard and dev tool (areas/internal-extras.ts).
  op("internal-extras", "componentVersions", "GET", "/internal/component-versions", "none"),
  op("internal-extras", "sendFeedback", "POST", "/internal/feedback", "none"),
  op("internal-extras", "getChangelog", "GET", "/internal/changelog", "none"),
  op("internal-extras", "sendTestWebhook", "POST", "/internal/send-test-webhook", "admin"),
  op("internal-extras", "localEmulatorProject", "POST", "/internal/local-emulator/project", "client"),
  op("ai", "aiChatCreate", "POST", "/internal/ai-chat/:thread_id", "admin"),
  op("ai", "aiChatUpdate", "PATCH", "/internal/ai-chat/:thread_id", "admin"),
  op("ai", "aiChatGet", "GET", "/internal/ai-chat/:thread_id", "admin"),
  op("ai", "aiQuery", "POST", "/ai/query/:mode", "none"),
  // Payments (§5.13)
  op("payments", "getItem", "GET", "/payments/items/:customer_type/:customer_id/:item_id", "client"),
  op("payments", "updateItemQuantity", "POST", "/payments/items/:customer_type/:customer_id/:item_id/update-quantity", "server"),
  op("payments", "getBilling", "GET", "/payments/billing/:customer_type/:customer_id", "client"),
  op("payments", "createSetupIntent", "POST", "/payments/payment-method/:customer_type/:customer_id/setup-intent", "client"),
  op("payments", "setDefaultPaymentMethod", "POST", "/payments/payment-method/:customer_type/:customer_id/set-default", "client"),
  op("payments", "listInvoices", "GET", "/payments/invoices/:customer_type/:customer_id", "client"),
  op("payments", "listCustomerProducts", "GET", "/payments/products/:customer_type/:customer_id", "client"),
  op("payments", "grantProduct", "POST", "/payments/products/:customer_type/:customer_id", "server"),
  op("payments", "cancelProduct", "DELETE", "/payments/products/:customer_type/:customer_id/:product_id", "client"),
  op("payments", "switchPlan", "POST", "/payments/products/:customer_type/:customer_id/switch", "client"),
  op("payments", "createPurchaseUrl", "POST", "/payments/purchases/create-purchase-url", "client"),
  op("payments", "validatePurchaseCode", "POST", "/payments/purchases/validate-code", "none"),
  op("payments", "checkPurchaseCode", "GET", "/payments/purchases/validate-code", "none"),
  op("payments", "purchaseSession", "POST", "/payments/purchases/purchase-session", "none"),
  op("payments", "paymentsSetup", "POST", "/internal/payments/setup", "admin"),
  op("payments", "stripeAccountInfo", "GET", "/internal/payments/stripe/account-info", "admin"),
  op("payments", "stripeWidgetSession", "POST", "/internal/payments/stripe-widgets/account-session", "admin"),
  op("payments", "getPaymentMethodConfigs", "GET", "/internal/payments/method-configs", "admin"),
  op("payments", "updatePaymentMethodConfigs", "PATCH", "/internal/payments/method-configs", "admin"),
  op("payments", "listTransactions", "GET", "/internal/payments/transactions", "admin"),
  op("payments", "testModePurchaseSession", "POST", "/internal/payments/test-mode-purchase-session", "admin"),
  op("payments", "refundTransaction", "POST", "/internal/payments/transactions/refund", "admin"),
  op("payments", "stripeWebhook", "POST", "/integrations/stripe/webhooks", "none"),
  // The published SDK's auto-captured page views and clicks (protocol.md §6.5; areas/analytics.ts).
  op("analytics", "analyticsBatch", "POST", "/analytics/events/batch", "client"),
  // An admin's read-only SQL over the project's analytics events (areas/analytics.ts).
  op("analytics", "analyticsQuery", "POST", "/internal/analytics/query", "admin"),
  // Session replays: the recorder's uploads and the admin's reads (areas/session-replays.ts).
  op("session-replays", "sessionReplayBatch", "POST", "/session-replays/batch", "client"),
  op("session-replays", "listSessionReplays", "GET", "/internal/session-replays", "admin"),
  op("session-replays", "listSessionReplayChunks", "GET", "/internal/session-replays/:session_replay_id/chunks", "admin"),
  op("session-replays", "getSessionReplayChunkEvents", "GET", "/internal/session-replays/:session_replay_id/chunks/:chunk_id/events", "admin"),
  op("session-replays", "getSessionReplayEvents", "GET", "/internal/session-replays/:session_replay_id/events", "admin"),
];

/** Every operation id of the contract. */
export type OperationId = (typeof operationTable)[number]["id"];
/** Who may call the operation with this id. */
export type AccessOf<Id extends OperationId> = Extract<(typeof operationTable)[number], { id: Id }>["access"];
