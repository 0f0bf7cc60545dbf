/** @authsim/sdk: the client, server and admin apps, their errors and token stores. The wire contract is "@authsim/sdk/contract". */
// For its effect: an `internal` user's owned projects get their admin app (client/owned-projects.ts says why it is
// registered rather than imported). Every entry that exposes a client app must import it (sdk/package.json "sideEffects").
import "./admin/owned-project-apps.ts";
export { StackClientApp, type ClientAppInternals } from "./client/client-app.ts";
// The client app's JSON form (spec §5): app[stackAppInternalsSymbol].toClientJson(), StackClientApp[…].fromClientJson(json).
export { stackAppInternalsSymbol } from "./client/app-internals.ts";
export type { ClientAppJson, ClientAppPlatform } from "./client/app-json.ts";
export { AppConfigError, type AppConfigErrorCode } from "./client/app-config-error.ts";
export { StackServerApp, type StackServerAppOptions } from "./server/server-app.ts";
export { StackAdminApp, type StackAdminAppOptions } from "./admin/admin-app.ts";
export type { StackClientAppOptions } from "./client/app-options.ts";
export type { CurrentUser } from "./client/current-user.ts";
export type { BaseUser, UserUpdateOptions } from "./client/user-fields.ts";
export type { Auth } from "./client/auth-methods.ts";
export type {
  Team,
  TeamData,
  TeamUser,
  TeamMemberProfile,
  TeamCreateOptions,
  TeamUpdateOptions,
  TeamInviteOptions,
} from "./client/teams.ts";
export type { EditableTeamMemberProfile, TeamRef, UserTeams } from "./client/user-teams.ts";
export type {
  SentTeamInvitation,
  TeamInvitation,
  ReceivedTeamInvitation,
  TeamInvitationCodeError,
} from "./client/team-invitations.ts";
export type {
  Permission,
  TeamPermission,
  ProjectPermission,
  PermissionListOptions,
  UserPermissions,
} from "./client/permissions.ts";
export type {
  ServerTeam,
  ServerTeamUser,
  ServerTeamCreateOptions,
  ServerTeamUpdateOptions,
  ServerListTeamsOptions,
  ServerUserTeams,
} from "./server/teams.ts";
export type { ServerUserPermissions } from "./server/permissions.ts";
export type {
  AdminPermission,
  AdminPermission as AdminTeamPermission,
  AdminPermission as AdminProjectPermission,
  AdminPermissionDefinition,
  AdminTeamPermissionDefinition,
  AdminProjectPermissionDefinition,
  AdminTeamPermissionDefinitionCreateOptions,
  AdminProjectPermissionDefinitionCreateOptions,
  AdminTeamPermissionDefinitionUpdateOptions,
  AdminProjectPermissionDefinitionUpdateOptions,
} from "./admin/permission-definitions.ts";
export type { Project, ProjectConfig } from "./client/projects.ts";
export { projectFromClientJson } from "./client/projects.ts";
export type { AdminProject, AdminProjectConfig, AdminOAuthProviderConfig, AdminEmailConfig } from "./admin/projects.ts";
export type {
  ServerUser,
  CurrentServerUser,
  ServerUserCreateOptions,
  ServerUserUpdateOptions,
  CreateSessionOptions,
  ServerSessionTokens,
} from "./server/server-user.ts";
export type { ServerListUsersOptions, CursorList } from "./server/users.ts";
export type {
  Item,
  GetItemOptions,
  CustomerOptions,
  CheckoutOptions,
  ServerCheckoutOptions,
  ClientCustomer,
} from "./client/items.ts";
export type { ServerItem, QuantityChange, ServerCustomer } from "./server/items.ts";
export type {
  CustomerBilling,
  CustomerBillingMethods,
  CustomerDefaultPaymentMethod,
  CustomerPaymentMethodSetupIntent,
} from "./client/billing.ts";
export type { DataVaultStore } from "./server/data-vault.ts";
export type {
  StripeAccountInfo,
  Transaction,
  ListTransactionsOptions,
  ItemQuantityChangeOptions,
} from "./admin/payments.ts";
export { DataVaultDecryptionError, DATA_VAULT_DECRYPTION_FAILED_MESSAGE } from "./crypto/data-vault.ts";
export { UserNotSignedInError, type GetUserOptions } from "./client/get-user.ts";
export type {
  SignInError,
  SignUpError,
  SignInWithCredentialOptions,
  SignUpWithCredentialOptions,
} from "./client/auth.ts";
export type { RedirectMethod } from "./client/redirect.ts";
export type { HandlerUrlOptions, ResolvedHandlerUrls } from "./client/urls.ts";
export {
  clientCachesSymbol,
  type CachedValue,
  type CachedValueOptions,
  type ClientCaches,
} from "./client/client-caches.ts";
// The hosted pages' half of the published kit's cross-domain sign-in (app[stackAppInternalsSymbol].createCrossDomainAuthRedirectUrl).
export { crossDomainHandoff, type CrossDomainHandoff } from "./client/cross-domain.ts";
export { visibleUser, type AppCaches } from "./client/cached-user.ts";
export type { CacheSnapshot } from "./cache/async-cache.ts";

// Account surfaces (issue 4): contact channels, verification, passwords, magic links, sessions, notification
// categories, user/team API keys, internal API keys.
export type {
  ContactChannel,
  ServerContactChannel,
  ContactChannelCreateOptions,
  ServerContactChannelCreateOptions,
  ContactChannelUpdateOptions,
  ServerContactChannelUpdateOptions,
} from "./client/contact-channels.ts";
export type { UserAccountMembers, SignedInAccountMembers } from "./client/account-members.ts";
export type { ServerUserAccountMembers } from "./server/account-members.ts";
export type { ActiveSession } from "./client/sessions.ts";
export type { NotificationCategory } from "./client/notification-categories.ts";
export type { VerificationCodeError, PasswordUpdateError, PasswordRequirementsError } from "./client/password.ts";
export type { MagicLinkSendError, MagicLinkSignInError } from "./client/magic-link.ts";
export type {
  ApiKey,
  UserApiKey,
  UserApiKeyFirstView,
  TeamApiKey,
  TeamApiKeyFirstView,
  ApiKeyCreationOptions,
  ApiKeyUpdateOptions,
} from "./client/api-keys.ts";
export type {
  InternalApiKey,
  InternalApiKeyFirstView,
  InternalApiKeyCreateOptions,
} from "./admin/internal-api-keys.ts";

export * from "./errors/index.ts";
export type { TokenStore, TokenPair } from "./session/token-store.ts";
export { memoryTokenStore } from "./session/token-store.ts";
export { cookieTokenStore, type CookieDocument } from "./session/cookie-store.ts";
export { requestTokenStore, tokensFromRequest, type RequestLike } from "./session/request-token-store.ts";
export type { TokenStoreInit } from "./session/resolve-store.ts";
export { AdminSessionUnsupportedError, type AdminAccessTokenProvider } from "./session/admin-session.ts";
export type { FetchLike } from "./transport/transport.ts";

/** The reference SDK's second name for each app (sdk-surface.md §1). */
export { StackClientApp as HexclaveClientApp } from "./client/client-app.ts";
export { StackServerApp as HexclaveServerApp } from "./server/server-app.ts";
export { StackAdminApp as HexclaveAdminApp } from "./admin/admin-app.ts";
// The admin surface (issue 6): project administration, owned projects, email, metrics.
export type { ManagedAdminProject } from "./admin/project-admin.ts";
export type {
  AdminProjectUpdateOptions,
  AdminProjectCreateOptions,
  AdminProjectConfigUpdateOptions,
} from "./project-admin/project-options.ts";
export type { AdminOwnedProject, InternalUserExtra } from "./client/internal-user.ts";
export type {
  EmailThemeSummary,
  EmailTemplateRecord,
  EmailDraftRecord,
  EmailDraftOptions,
  EmailPreviewOptions,
  AdminSentEmail,
  SmtpConfigOptions,
} from "./admin/emails.ts";
export type {
  ManagedEmailProviderSetupResult,
  ManagedEmailProviderListItem,
  ManagedEmailProviderStatus,
} from "./admin/managed-email.ts";
export type { OnboardingChange, AffectedUser } from "./admin/onboarding.ts";
export type { SendEmailOptions, EmailDeliveryInfo } from "./server/emails.ts";

// Strong auth (issue 5): OAuth with PKCE, provider links and connected accounts, TOTP MFA, passkeys, CLI login.
export type { BrowserEnvironment, StorageLike } from "./client/browser-env.ts";
export { memoryCookieDocument, memoryStorage } from "./client/browser-env.ts";
export { OAUTH_CALLBACK_FAILED_MESSAGE, OAUTH_CALLBACK_INVALID_TOTP_MESSAGE } from "./client/oauth.ts";
export { MFA_ATTEMPT_CODE_STORAGE_KEY, type MfaSignInError } from "./client/mfa.ts";
export {
  browserWebAuthn,
  type WebAuthnAdapter,
  type PasskeyRegistrationError,
  type PasskeySignInError,
} from "./client/passkeys.ts";
export type { CliLoginError, PromptCliLoginOptions } from "./client/cli-login.ts";
export { TOTP_SECRET_BYTES, type TotpSetup, type TotpSetupOptions } from "./client/totp-setup.ts";
export { totpCode, verifyTotpCode, base32Encode, base32Decode, otpauthUri } from "./crypto/totp.ts";
export type {
  OAuthProvider,
  ServerOAuthProvider,
  OAuthConnection,
  UserOAuthMembers,
  AccountIdAlreadyUsed,
} from "./client/oauth-providers.ts";
export type {
  DeprecatedOAuthConnection,
  DeprecatedConnectedAccountOptions,
  SignedInOAuthMembers,
} from "./client/connected-accounts.ts";
export type { ServerOAuthProviderCreateOptions } from "./server/oauth-providers.ts";
