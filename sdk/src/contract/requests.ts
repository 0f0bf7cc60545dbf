import type { z } from "zod";
import * as a from "./areas/index.ts";
import type { OperationId } from "./operations.ts";
import { byCaller, type CallerBodies, type noBody, type noQuery, type OperationRequest } from "./request-kinds.ts";

/**
 * What each operation accepts (params, query, body: the area schemas the fake provider parses requests with) and the
 * known errors its own code may answer, by operation id. operation-list.ts attaches them to each operation; the fake
 * provider's routes, the OpenAPI document and the fuzzer read them from there. Typed by `OperationId`, so an operation
 * without an entry, or an entry for no operation, does not compile. The error lists were read off each route's code
 * paths in the fake provider (every `knownError(...)` its handler can reach); they do not repeat the errors every
 * request may get before the operation runs (authentication, access, body parsing, the parts' SCHEMA_ERROR).
 */
export type { CallerBodies, OperationRequest } from "./request-kinds.ts";
export { anyParams, bodyForCaller, byCaller, noBody, noQuery } from "./request-kinds.ts";

export const operationRequests = {
  // Root and meta (§6.1)
  root: { errors: [] },
  backendUrls: { errors: [] },
  checkFeatureSupport: { body: a.checkFeatureSupportBody, errors: [] },
  checkVersion: { body: a.checkVersionBody, errors: [] },
  jwks: { params: a.jwksParams, query: a.jwksQuery, errors: [] },
  // Auth (§6.2)
  passwordSignUp: { body: a.passwordSignUpBody, errors: ["EMAIL_ALREADY_VERIFIED", "PASSWORD_AUTHENTICATION_NOT_ENABLED", "PASSWORD_TOO_LONG", "PASSWORD_TOO_SHORT", "REDIRECT_URL_NOT_WHITELISTED", "SIGN_UP_NOT_ENABLED", "SIGN_UP_REJECTED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS"] },
  passwordSignIn: { body: a.passwordSignInBody, errors: ["EMAIL_PASSWORD_MISMATCH", "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "PASSWORD_AUTHENTICATION_NOT_ENABLED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS"] },
  anonymousSignUp: { errors: ["ANONYMOUS_ACCOUNTS_NOT_ENABLED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS"] },
  sendResetCode: { body: a.sendResetCodeBody, errors: ["PASSWORD_AUTHENTICATION_NOT_ENABLED", "REDIRECT_URL_NOT_WHITELISTED"] },
  resetPassword: { body: a.resetPasswordBody, errors: ["PASSWORD_AUTHENTICATION_NOT_ENABLED", "PASSWORD_TOO_LONG", "PASSWORD_TOO_SHORT", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  checkResetCode: { body: a.verificationCodeBody, errors: ["PASSWORD_AUTHENTICATION_NOT_ENABLED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  updatePassword: { body: a.updatePasswordBody, errors: ["PASSWORD_CONFIRMATION_MISMATCH", "PASSWORD_TOO_LONG", "PASSWORD_TOO_SHORT", "SCHEMA_ERROR", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_DOES_NOT_HAVE_PASSWORD", "USER_EMAIL_ALREADY_EXISTS"] },
  setPassword: { body: a.setPasswordBody, errors: ["PASSWORD_AUTHENTICATION_NOT_ENABLED", "PASSWORD_TOO_LONG", "PASSWORD_TOO_SHORT", "SCHEMA_ERROR", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS"] },
  sendSignInCode: { body: a.sendSignInCodeBody, errors: ["REDIRECT_URL_NOT_WHITELISTED", "SIGN_UP_NOT_ENABLED", "USER_EMAIL_ALREADY_EXISTS"] },
  otpSignIn: { body: a.verificationCodeBody, errors: ["MULTI_FACTOR_AUTHENTICATION_REQUIRED", "SIGN_UP_NOT_ENABLED", "SIGN_UP_REJECTED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  otpCheckCode: { body: a.verificationCodeBody, errors: ["VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  mfaSignIn: { body: a.mfaSignInBody, errors: ["INVALID_TOTP_CODE", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  initiatePasskeyRegistration: { body: a.initiatePasskeyBody, errors: ["PASSKEY_AUTHENTICATION_NOT_ENABLED", "PASSKEY_REGISTRATION_FAILED", "USER_AUTHENTICATION_REQUIRED"] },
  registerPasskey: { body: a.registerPasskeyBody, errors: ["PASSKEY_AUTHENTICATION_NOT_ENABLED", "PASSKEY_REGISTRATION_FAILED", "USER_AUTHENTICATION_REQUIRED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  initiatePasskeyAuthentication: { body: a.initiatePasskeyBody, errors: ["PASSKEY_AUTHENTICATION_NOT_ENABLED"] },
  passkeySignIn: { body: a.passkeySignInBody, errors: ["MULTI_FACTOR_AUTHENTICATION_REQUIRED", "PASSKEY_AUTHENTICATION_FAILED", "PASSKEY_AUTHENTICATION_NOT_ENABLED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  oauthAuthorize: { params: a.oauthProviderIdParams, query: a.oauthAuthorizeQuery, errors: ["ACCESS_TOKEN_EXPIRED", "INVALID_OAUTH_CLIENT_ID_OR_SECRET", "INVALID_PUBLISHABLE_CLIENT_KEY", "INVALID_SCOPE", "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", "REDIRECT_URL_NOT_WHITELISTED", "UNPARSABLE_ACCESS_TOKEN"] },
  oauthCallbackGet: { params: a.oauthProviderIdParams, query: a.oauthCallbackParams, body: a.oauthCallbackGetBody, errors: ["CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER", "OAUTH_PROVIDER_ACCESS_DENIED", "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", "OUTER_OAUTH_TIMEOUT", "REDIRECT_URL_NOT_WHITELISTED", "SIGN_UP_NOT_ENABLED", "SIGN_UP_REJECTED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION", "USER_EMAIL_ALREADY_EXISTS"] },
  oauthCallbackPost: { params: a.oauthProviderIdParams, query: a.oauthCallbackPostQuery, body: a.oauthCallbackPostBody, form: true, errors: ["CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER", "OAUTH_PROVIDER_ACCESS_DENIED", "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", "OUTER_OAUTH_TIMEOUT", "REDIRECT_URL_NOT_WHITELISTED", "SIGN_UP_NOT_ENABLED", "SIGN_UP_REJECTED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION", "USER_EMAIL_ALREADY_EXISTS"] },
  appleNativeSignIn: { body: a.appleNativeSignInBody, errors: ["APPLE_BUNDLE_ID_NOT_CONFIGURED", "INVALID_APPLE_CREDENTIALS", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED"] },
  crossDomainAuthorize: { body: a.crossDomainAuthorizeBody, errors: ["INVALID_OAUTH_CLIENT_ID_OR_SECRET", "INVALID_PUBLISHABLE_CLIENT_KEY", "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", "REDIRECT_URL_NOT_WHITELISTED", "USER_AUTHENTICATION_REQUIRED"] },
  oauthToken: { body: a.oauthTokenBody, form: true, errors: ["INVALID_AUTHORIZATION_CODE", "INVALID_OAUTH_CLIENT_ID_OR_SECRET", "INVALID_SCOPE", "MULTI_FACTOR_AUTHENTICATION_REQUIRED", "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"] },
  legacyConnectedAccountToken: { params: a.oauthProviderIdParams, query: a.legacyConnectedAccountTokenQuery, errors: ["OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "USER_AUTHENTICATION_REQUIRED"] },
  createSession: { body: a.createSessionBody, errors: ["USER_ID_DOES_NOT_EXIST"] },
  listSessions: { query: a.sessionListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  deleteCurrentSession: { errors: ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", "USER_AUTHENTICATION_REQUIRED"] },
  refreshCurrentSession: { errors: ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"] },
  deleteSession: { params: a.sessionParams, query: a.sessionDeleteQuery, errors: ["CANNOT_DELETE_CURRENT_SESSION"] },
  cliCreate: { body: a.cliCreateBody, errors: [] },
  cliPoll: { body: a.cliPollBody, errors: ["INVALID_POLLING_CODE"] },
  cliComplete: { body: a.cliCompleteBody, errors: ["RESTRICTED_USER_NOT_ALLOWED"] },
  // Users and contact channels (§6.3)
  getMe: { errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"] },
  updateMe: { body: byCaller(a.clientUserUpdate, a.serverUserUpdate), errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "USER_EMAIL_ALREADY_EXISTS"] },
  deleteMe: { errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND"] },
  listUsers: { query: a.userListQuery, errors: [] },
  createUser: { body: a.serverUserCreate, errors: ["OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_EMAIL_ALREADY_EXISTS"] },
  getUser: { params: a.userParams, query: a.userListQuery, errors: ["USER_NOT_FOUND"] },
  updateUser: { params: a.userParams, query: a.userListQuery, body: a.serverUserUpdate, errors: ["TEAM_MEMBERSHIP_ALREADY_EXISTS", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "USER_EMAIL_ALREADY_EXISTS", "USER_NOT_FOUND"] },
  deleteUser: { params: a.userParams, query: a.userListQuery, errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "USER_NOT_FOUND"] },
  listContactChannels: { query: a.contactChannelListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  createContactChannel: { body: byCaller(a.clientContactChannelCreate, a.serverContactChannelCreate), errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", "USER_NOT_FOUND"] },
  sendVerificationCodeLegacy: { body: a.sendPrimaryVerificationBody, errors: ["EMAIL_ALREADY_VERIFIED", "EMAIL_IS_NOT_PRIMARY_EMAIL", "REDIRECT_URL_NOT_WHITELISTED", "SCHEMA_ERROR"] },
  verifyContactChannel: { body: a.verificationCodeBody, errors: ["VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  checkContactChannelCode: { body: a.verificationCodeBody, errors: ["VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  getContactChannel: { params: a.contactChannelParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  updateContactChannel: { params: a.contactChannelParams, body: byCaller(a.clientContactChannelUpdate, a.serverContactChannelUpdate), errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", "USER_NOT_FOUND"] },
  deleteContactChannel: { params: a.contactChannelParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  sendContactChannelVerificationCode: { params: a.contactChannelParams, body: a.sendChannelVerificationBody, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "EMAIL_ALREADY_VERIFIED", "REDIRECT_URL_NOT_WHITELISTED", "USER_NOT_FOUND"] },
  listOAuthProviders: { query: a.oauthProviderListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  createOAuthProvider: { body: a.serverOAuthProviderCreate, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", "USER_NOT_FOUND"] },
  getOAuthProvider: { params: a.oauthProviderParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  updateOAuthProvider: { params: a.oauthProviderParams, body: byCaller(a.clientOAuthProviderUpdate, a.serverOAuthProviderUpdate), errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", "USER_NOT_FOUND"] },
  deleteOAuthProvider: { params: a.oauthProviderParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  listConnectedAccounts: { params: a.connectedAccountListParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  connectedAccountToken: { params: a.connectedAccountTokenParams, body: a.connectedAccountTokenRequestBody, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "USER_NOT_FOUND"] },
  connectedAccountTokenByAccount: { params: a.connectedAccountTokenByAccountParams, body: a.connectedAccountTokenRequestBody, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS", "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", "USER_NOT_FOUND"] },
  listNotificationPreferences: { params: a.notificationPreferenceListParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  updateNotificationPreference: { params: a.notificationPreferenceParams, body: a.notificationPreferenceUpdate, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "SCHEMA_ERROR", "USER_NOT_FOUND"] },
  listUserApiKeys: { query: a.userApiKeyListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "SCHEMA_ERROR", "USER_NOT_FOUND"] },
  createUserApiKey: { body: a.userApiKeyCreate, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"] },
  checkUserApiKey: { body: a.apiKeyCheckBody, errors: ["API_KEY_EXPIRED", "API_KEY_NOT_FOUND", "API_KEY_REVOKED", "WRONG_API_KEY_TYPE"] },
  getUserApiKey: { params: a.apiKeyParams, query: a.userApiKeyItemQuery, errors: ["API_KEY_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED"] },
  updateUserApiKey: { params: a.apiKeyParams, query: a.userApiKeyItemQuery, body: a.apiKeyUpdate, errors: ["API_KEY_NOT_FOUND", "PUBLIC_API_KEY_CANNOT_BE_REVOKED", "USER_AUTHENTICATION_REQUIRED"] },
  listTeamApiKeys: { query: a.teamApiKeyListQuery, errors: ["API_KEY_NOT_FOUND", "SCHEMA_ERROR", "TEAM_NOT_FOUND"] },
  createTeamApiKey: { body: a.teamApiKeyCreate, errors: ["API_KEY_NOT_FOUND", "TEAM_NOT_FOUND"] },
  checkTeamApiKey: { body: a.apiKeyCheckBody, errors: ["API_KEY_EXPIRED", "API_KEY_NOT_FOUND", "API_KEY_REVOKED", "WRONG_API_KEY_TYPE"] },
  getTeamApiKey: { params: a.apiKeyParams, query: a.teamApiKeyItemQuery, errors: ["API_KEY_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED"] },
  updateTeamApiKey: { params: a.apiKeyParams, query: a.teamApiKeyItemQuery, body: a.apiKeyUpdate, errors: ["API_KEY_NOT_FOUND", "PUBLIC_API_KEY_CANNOT_BE_REVOKED", "USER_AUTHENTICATION_REQUIRED"] },
  dataVaultGet: { params: a.dataVaultStoreParams, body: a.dataVaultGetBody, errors: ["DATA_VAULT_STORE_DOES_NOT_EXIST", "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST"] },
  dataVaultSet: { params: a.dataVaultStoreParams, body: a.dataVaultSetBody, errors: ["DATA_VAULT_STORE_DOES_NOT_EXIST"] },
  // Teams (§6.4)
  listTeams: { query: a.teamListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE"] },
  createTeam: { body: byCaller(a.clientTeamCreate, a.serverTeamCreate), errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  getTeam: { params: a.teamParams, errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  updateTeam: { params: a.teamParams, body: byCaller(a.clientTeamUpdate, a.serverTeamUpdate), errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  deleteTeam: { params: a.teamParams, body: a.teamDeleteBody, errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  addTeamMember: { params: a.teamMembershipParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "TEAM_NOT_FOUND", "USER_NOT_FOUND"] },
  removeTeamMember: { params: a.teamMembershipParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  listTeamMemberProfiles: { query: a.teamMemberProfileListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  getTeamMemberProfile: { params: a.teamMemberProfileParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  updateTeamMemberProfile: { params: a.teamMemberProfileParams, body: a.teamMemberProfileUpdate, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED"] },
  listTeamPermissions: { query: a.teamPermissionListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_NOT_FOUND"] },
  grantTeamPermission: { params: a.teamPermissionGrantParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "PERMISSION_NOT_FOUND", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "USER_NOT_FOUND", "WRONG_PERMISSION_SCOPE"] },
  revokeTeamPermission: { params: a.teamPermissionGrantParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "PERMISSION_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_NOT_FOUND", "USER_NOT_FOUND", "WRONG_PERMISSION_SCOPE"] },
  listProjectPermissions: { query: a.projectPermissionListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER"] },
  grantProjectPermission: { params: a.projectPermissionGrantParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "PERMISSION_NOT_FOUND", "USER_NOT_FOUND", "WRONG_PERMISSION_SCOPE"] },
  revokeProjectPermission: { params: a.projectPermissionGrantParams, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "PERMISSION_NOT_FOUND", "USER_NOT_FOUND", "WRONG_PERMISSION_SCOPE"] },
  listTeamPermissionDefinitions: { query: a.permissionDefinitionListQuery, errors: [] },
  createTeamPermissionDefinition: { body: a.permissionDefinitionCreate, errors: [] },
  updateTeamPermissionDefinition: { params: a.permissionDefinitionParams, body: a.permissionDefinitionUpdate, errors: [] },
  deleteTeamPermissionDefinition: { params: a.permissionDefinitionParams, errors: [] },
  listProjectPermissionDefinitions: { query: a.permissionDefinitionListQuery, errors: [] },
  createProjectPermissionDefinition: { body: a.permissionDefinitionCreate, errors: [] },
  updateProjectPermissionDefinition: { params: a.permissionDefinitionParams, body: a.permissionDefinitionUpdate, errors: [] },
  deleteProjectPermissionDefinition: { params: a.permissionDefinitionParams, errors: [] },
  listTeamInvitations: { query: a.teamInvitationListQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  sendTeamInvitation: { body: a.teamInvitationSendCode, errors: ["REDIRECT_URL_NOT_WHITELISTED", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  acceptTeamInvitation: { body: a.teamInvitationCodeBody, errors: ["ITEM_NOT_FOUND", "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", "TEAM_INVITATION_EMAIL_MISMATCH", "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "TEAM_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  checkTeamInvitationCode: { body: a.teamInvitationCodeBody, errors: ["TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", "TEAM_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  teamInvitationDetails: { body: a.teamInvitationCodeBody, errors: ["TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", "TEAM_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", "VERIFICATION_CODE_NOT_FOUND"] },
  acceptTeamInvitationById: { params: a.teamInvitationParams, query: a.teamInvitationAcceptByIdQuery, errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "INSUFFICIENT_ACCESS_TYPE", "ITEM_NOT_FOUND", "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", "TEAM_INVITATION_EMAIL_MISMATCH", "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED", "TEAM_MEMBERSHIP_ALREADY_EXISTS", "TEAM_NOT_FOUND", "USER_NOT_FOUND", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_NOT_FOUND"] },
  revokeTeamInvitation: { params: a.teamInvitationParams, query: a.teamInvitationRevokeQuery, errors: ["TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_NOT_FOUND"] },
  // Projects and admin (§6.5, §5.12–5.14)
  getCurrentProject: { errors: [] },
  getAdminProject: { errors: [] },
  updateAdminProject: { body: a.adminProjectUpdate, errors: ["INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID", "PERMISSION_NOT_FOUND", "SCHEMA_ERROR", "WRONG_PERMISSION_SCOPE"] },
  deleteAdminProject: { errors: [] },
  listOwnedProjects: { errors: ["EXPECTED_INTERNAL_PROJECT", "USER_AUTHENTICATION_REQUIRED"] },
  createOwnedProject: { body: a.ownedProjectCreate, errors: ["EXPECTED_INTERNAL_PROJECT", "INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID", "PERMISSION_NOT_FOUND", "SCHEMA_ERROR", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED", "WRONG_PERMISSION_SCOPE"] },
  transferProject: { body: a.projectTransfer, errors: ["EXPECTED_INTERNAL_PROJECT", "PROJECT_NOT_FOUND", "TEAM_MEMBERSHIP_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  listInternalApiKeys: { errors: [] },
  createInternalApiKey: { body: a.internalApiKeyCreate, errors: [] },
  getInternalApiKey: { params: a.internalApiKeyParams, errors: ["API_KEY_NOT_FOUND"] },
  updateInternalApiKey: { params: a.internalApiKeyParams, body: a.internalApiKeyUpdate, errors: ["API_KEY_NOT_FOUND"] },
  getConfig: { errors: [] },
  getConfigOverride: { params: a.configLevelParams, errors: [] },
  updateConfigOverride: { body: a.configOverrideUpdate, errors: [] },
  replaceConfigOverride: { params: a.configLevelParams, body: a.configOverrideReplace, errors: [] },
  updateConfigOverrideLevel: { params: a.configLevelParams, body: a.configOverrideUpdate, errors: [] },
  getConfigSource: { errors: [] },
  unlinkConfigSource: { errors: [] },
  resetConfigOverrideKeys: { params: a.configLevelParams, body: a.configResetKeys, errors: [] },
  testSignUpRules: { body: a.signUpRulesTestBody, errors: [] },
  signUpRulesStats: { errors: [] },
  svixToken: { body: a.svixTokenRequest, errors: [] },
  metrics: { query: a.metricsQuery, errors: [] },
  sendTestEmail: { body: a.sendTestEmailRequest, errors: [] },
  listSentEmails: { errors: [] },
  sendSignInInvitation: { body: a.signInInvitationRequest, errors: ["REDIRECT_URL_NOT_WHITELISTED"] },
  listEmailTemplates: { errors: [] },
  createEmailTemplate: { body: a.emailTemplateCreate, errors: ["EMAIL_TEMPLATE_ALREADY_EXISTS", "REQUIRES_CUSTOM_EMAIL_SERVER"] },
  updateEmailTemplate: { params: a.emailTemplateParams, body: a.emailTemplateUpdate, errors: ["EMAIL_RENDERING_ERROR", "REQUIRES_CUSTOM_EMAIL_SERVER"] },
  deleteEmailTemplate: { params: a.emailTemplateParams, errors: ["REQUIRES_CUSTOM_EMAIL_SERVER"] },
  listEmailThemes: { errors: [] },
  createEmailTheme: { body: a.emailThemeCreate, errors: [] },
  getEmailTheme: { params: a.emailThemeParams, errors: [] },
  updateEmailTheme: { params: a.emailThemeParams, body: a.emailThemeUpdate, errors: ["EMAIL_RENDERING_ERROR"] },
  deleteEmailTheme: { params: a.emailThemeParams, errors: [] },
  listEmailDrafts: { errors: [] },
  createEmailDraft: { body: a.emailDraftCreate, errors: [] },
  updateEmailDraft: { params: a.emailDraftParams, body: a.emailDraftUpdate, errors: [] },
  deleteEmailDraft: { params: a.emailDraftParams, errors: [] },
  renderEmail: { body: a.emailUnionBody, errors: ["EMAIL_RENDERING_ERROR", "SCHEMA_ERROR"] },
  sendEmail: { body: a.emailUnionBody, errors: ["EMAIL_RENDERING_ERROR", "REQUIRES_CUSTOM_EMAIL_SERVER", "SCHEMA_ERROR", "USER_ID_DOES_NOT_EXIST"] },
  emailDeliveryInfo: { errors: [] },
  listOutboxEmails: { query: a.outboxListQuery, errors: [] },
  getOutboxEmail: { params: a.outboxEmailParams, errors: [] },
  updateOutboxEmail: { params: a.outboxEmailParams, body: a.outboxEmailUpdate, errors: ["EMAIL_NOT_EDITABLE", "EMAIL_RENDERING_ERROR"] },
  activateCapacityBoost: { errors: ["EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE"] },
  unsubscribeLink: { query: a.unsubscribeLinkQuery, errors: ["SCHEMA_ERROR", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_NOT_FOUND"] },
  getEmailDraft: { params: a.emailDraftParams, errors: [] },
  rewriteTemplateSource: { body: a.rewriteTemplateSourceRequest, errors: ["TEMPLATE_SOURCE_REWRITE_ERROR"] },
  emailQueueStep: { query: a.emailQueueStepQuery, errors: ["SCHEMA_ERROR"] },
  failedEmailsDigest: { query: a.failedEmailsDigestQuery, errors: ["SCHEMA_ERROR"] },
  setupManagedEmail: { body: a.managedEmailSetupBody, errors: [] },
  listManagedEmailDomains: { errors: [] },
  checkManagedEmail: { body: a.managedEmailCheckBody, errors: [] },
  applyManagedEmail: { body: a.managedEmailApplyBody, errors: [] },
  previewAffectedUsers: { query: a.previewAffectedUsersQuery, body: a.previewAffectedUsersBody, errors: [] },
  componentVersions: { errors: [] },
  sendFeedback: { body: a.feedbackRequest, errors: [] },
  getChangelog: { errors: [] },
  sendTestWebhook: { body: a.sendTestWebhookRequest, errors: [] },
  localEmulatorProject: { body: a.localEmulatorProjectRequest, errors: ["SCHEMA_ERROR"] },
  aiChatCreate: { params: a.aiChatParams, body: a.aiChatCreate, errors: [] },
  aiChatUpdate: { params: a.aiChatParams, body: a.aiChatSave, errors: [] },
  aiChatGet: { params: a.aiChatParams, errors: [] },
  aiQuery: { params: a.aiQueryParams, body: a.aiQueryRequest, errors: [] },
  // Payments (§5.13)
  getItem: { params: a.itemParams, errors: ["INSUFFICIENT_ACCESS_TYPE", "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", "ITEM_NOT_FOUND", "TEAM_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  updateItemQuantity: { params: a.itemParams, query: a.updateItemQuantityQuery, body: a.updateItemQuantityBody, errors: ["INSUFFICIENT_ACCESS_TYPE", "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", "ITEM_NOT_FOUND", "ITEM_QUANTITY_INSUFFICIENT_AMOUNT", "TEAM_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  getBilling: { params: a.billingParams, errors: ["TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  createSetupIntent: { params: a.billingParams, body: a.setupIntentBody, errors: ["TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  listInvoices: { params: a.billingParams, query: a.invoicesQuery, errors: ["TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED"] },
  listCustomerProducts: { params: a.customerParams, query: a.customerProductsQuery, errors: ["TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  grantProduct: { params: a.customerParams, body: a.grantProductBody, errors: ["PRODUCT_ALREADY_GRANTED", "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", "PRODUCT_DOES_NOT_EXIST", "TEAM_NOT_FOUND", "USER_NOT_FOUND"] },
  cancelProduct: { params: a.customerProductParams, query: a.cancelProductQuery, errors: ["PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", "PRODUCT_DOES_NOT_EXIST", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  switchPlan: { params: a.switchPlanParams, body: a.switchPlanBody, errors: ["DEFAULT_PAYMENT_METHOD_REQUIRED", "NEW_PURCHASES_BLOCKED", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  createPurchaseUrl: { body: a.createPurchaseUrlBody, errors: ["ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", "ITEM_NOT_FOUND", "NEW_PURCHASES_BLOCKED", "PRODUCT_ALREADY_GRANTED", "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH", "PRODUCT_DOES_NOT_EXIST", "REDIRECT_URL_NOT_WHITELISTED", "TEAM_NOT_FOUND", "TEAM_PERMISSION_REQUIRED", "USER_AUTHENTICATION_REQUIRED", "USER_NOT_FOUND"] },
  validatePurchaseCode: { body: a.validatePurchaseCodeBody, errors: ["REDIRECT_URL_NOT_WHITELISTED", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_NOT_FOUND"] },
  checkPurchaseCode: { query: a.validatePurchaseCodeBody, errors: ["REDIRECT_URL_NOT_WHITELISTED", "VERIFICATION_CODE_NOT_FOUND"] },
  purchaseSession: { body: a.purchaseSessionBody, errors: ["ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", "ITEM_NOT_FOUND", "NEW_PURCHASES_BLOCKED", "PRODUCT_ALREADY_GRANTED", "TEAM_NOT_FOUND", "USER_NOT_FOUND", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_NOT_FOUND"] },
  paymentsSetup: { errors: [] },
  stripeAccountInfo: { errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"] },
  stripeWidgetSession: { errors: [] },
  getPaymentMethodConfigs: { errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"] },
  updatePaymentMethodConfigs: { body: a.updatePaymentMethodConfigsBody, errors: ["STRIPE_ACCOUNT_INFO_NOT_FOUND"] },
  listTransactions: { query: a.listTransactionsQuery, errors: [] },
  testModePurchaseSession: { body: a.testModePurchaseBody, errors: ["ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", "ITEM_NOT_FOUND", "NEW_PURCHASES_BLOCKED", "PRODUCT_ALREADY_GRANTED", "TEAM_NOT_FOUND", "USER_NOT_FOUND", "VERIFICATION_CODE_ALREADY_USED", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_NOT_FOUND"] },
  refundTransaction: { body: a.refundTransactionBody, errors: ["ONE_TIME_PURCHASE_ALREADY_REFUNDED", "ONE_TIME_PURCHASE_NOT_FOUND", "SCHEMA_ERROR", "SUBSCRIPTION_ALREADY_REFUNDED", "SUBSCRIPTION_INVOICE_NOT_FOUND", "TEST_MODE_PURCHASE_NON_REFUNDABLE"] },
  stripeWebhook: { body: a.stripeWebhookBody, errors: ["EMAIL_RENDERING_ERROR", "SCHEMA_ERROR", "TEAM_NOT_FOUND", "USER_NOT_FOUND"] },
  analyticsBatch: { body: a.analyticsEventBatchRequest, errors: ["ANALYTICS_NOT_ENABLED", "USER_AUTHENTICATION_REQUIRED"] },
  analyticsQuery: { body: a.analyticsQueryRequest, errors: ["ANALYTICS_QUERY_ERROR"] },
  sessionReplayBatch: { body: a.sessionReplayBatchRequest, errors: ["ANALYTICS_NOT_ENABLED", "USER_AUTHENTICATION_REQUIRED"] },
  listSessionReplays: { query: a.sessionReplayListQuery, errors: ["ITEM_NOT_FOUND"] },
  listSessionReplayChunks: { params: a.sessionReplayParams, query: a.sessionReplayChunksQuery, errors: ["ITEM_NOT_FOUND"] },
  getSessionReplayChunkEvents: { params: a.sessionReplayChunkParams, errors: ["ITEM_NOT_FOUND"] },
  getSessionReplayEvents: { params: a.sessionReplayParams, query: a.sessionReplayEventsQuery, errors: ["ITEM_NOT_FOUND"] },
} as const satisfies { readonly [Id in OperationId]: OperationRequest };

type RequestOf<Id extends OperationId> = (typeof operationRequests)[Id];

// Each helper takes the entry as a naked type parameter, so for a union of ids it gives the union of their parts.
type ParamsOf<R> = R extends { readonly params: infer P extends z.ZodType } ? z.output<P> : Record<string, string>;
type QueryOf<R> = R extends { readonly query: infer Q extends z.ZodType } ? z.output<Q> : z.output<typeof noQuery>;
type BodyOf<R> = R extends { readonly body: CallerBodies<infer C, infer S> }
  ? z.output<C> | z.output<S>
  : R extends { readonly body: infer B extends z.ZodType }
    ? z.output<B>
    : z.output<typeof noBody>;
type BodyInputOf<R, Caller extends "client" | "server"> = R extends { readonly body: CallerBodies<infer C, infer S> }
  ? z.input<Caller extends "client" ? C : S>
  : R extends { readonly body: infer B extends z.ZodType }
    ? z.input<B>
    : z.input<typeof noBody>;

/** The parsed `:params` of an operation's path. */
export type RequestParams<Id extends OperationId> = ParamsOf<RequestOf<Id>>;
/** The parsed query of an operation. */
export type RequestQuery<Id extends OperationId> = QueryOf<RequestOf<Id>>;
/** The parsed body of an operation (either caller's, for a body that depends on who calls). */
export type RequestBody<Id extends OperationId> = BodyOf<RequestOf<Id>>;
/** The body a caller with `Caller` access sends (before defaults and transforms). */
export type RequestBodyInput<Id extends OperationId, Caller extends "client" | "server" = "server"> = BodyInputOf<RequestOf<Id>, Caller>;
