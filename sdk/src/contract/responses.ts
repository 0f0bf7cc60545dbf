import type { z } from "zod";
import * as a from "./areas/index.ts";
import type { AccessType } from "./headers.ts";
import type { OperationId } from "./operations.ts";

/**
 * What each operation answers when it does not refuse (a refusal is a known error: errors.ts), by operation id, in
 * terms of the area schemas our SDK parses answers with. operations.ts attaches them to each operation; the OpenAPI
 * document and the conformance check of real answers (conformance/src/suites/response-schemas.test.ts) read them from
 * there. Statuses are the wire's: 201 for the CRUD creates, 200 for upstream's custom routes, 3xx for the OAuth
 * redirects. Typed by `OperationId`, so an operation without an entry, or an entry for no operation, does not compile.
 */
export type OperationResponse = JsonResponse | TextResponse | RedirectResponse;

export interface JsonResponse {
  readonly kind: "json";
  /** 400 only for the token endpoint's RFC 6749 error answer, which is not a known error. */
  readonly status: 200 | 201 | 400;
  readonly schema: z.ZodType;
  /** For a view chosen by who calls (areas/common.ts `byAccess`): the one each caller gets. */
  readonly views?: { readonly client: z.ZodType; readonly server: z.ZodType };
  readonly description: string;
}

/** A plain-text answer (the root's welcome, check-feature-support): no schema to hold it to. */
export interface TextResponse {
  readonly kind: "text";
  readonly status: 200;
  readonly description: string;
}

/** A redirect: the `location` header is the answer (the OAuth browser legs). */
export interface RedirectResponse {
  readonly kind: "redirect";
  readonly status: 303 | 307;
  readonly description: string;
}

/** The schema an answer to this caller must match: its own view when the answer depends on who calls. */
export function schemaForCaller(response: JsonResponse, accessType: AccessType | null): z.ZodType {
  if (!response.views) return response.schema;
  return accessType === "client" ? response.views.client : response.views.server;
}

const json = (schema: z.ZodType, status: JsonResponse["status"] = 200, description = "Success"): JsonResponse => ({ kind: "json", status, schema, description });
const created = (schema: z.ZodType): JsonResponse => json(schema, 201, "Created");
const view = (schema: z.ZodUnion<readonly [z.ZodType, z.ZodType]>, status: JsonResponse["status"] = 200): JsonResponse => ({
  ...json(schema, status, status === 201 ? "Created" : "Success"),
  views: { client: schema.options[0], server: schema.options[1] },
});
const success = json(a.successResponse);
const text = (description: string): TextResponse => ({ kind: "text", status: 200, description });
const redirect = (status: RedirectResponse["status"], description: string): RedirectResponse => ({ kind: "redirect", status, description });

export const operationResponses: { readonly [Id in OperationId]: readonly OperationResponse[] } = {
  // Root and meta
  root: [text("Plain text: a welcome line and who the request authenticated as (Authentication: None, or type, project, user).")],
  backendUrls: [json(a.backendUrlsResponse)],
  checkFeatureSupport: [text("Plain text: the named feature is not supported.")],
  checkVersion: [json(a.checkVersionResponse)],
  jwks: [json(a.jwksResponse, 200, "The project's JSON Web Key Set")],
  // Sessions and tokens
  passwordSignUp: [json(a.signInResponse)],
  passwordSignIn: [json(a.signInResponse)],
  anonymousSignUp: [json(a.signInResponse)],
  oauthToken: [json(a.tokenResponse), json(a.oauthTokenErrorResponse, 400, "An OAuth error (RFC 6749 §5.2)")],
  createSession: [json(a.createSessionResponse)],
  listSessions: [json(a.sessionList)],
  deleteCurrentSession: [success],
  refreshCurrentSession: [json(a.refreshCurrentSessionResponse)],
  deleteSession: [success],
  // Password, OTP, MFA, passkeys
  sendResetCode: [json(a.sendResetCodeResponse)],
  resetPassword: [success],
  checkResetCode: [json(a.verificationCodeCheckResponse)],
  updatePassword: [success],
  setPassword: [success],
  sendSignInCode: [json(a.sendSignInCodeResponse)],
  otpSignIn: [json(a.signInWithNewUserResponse)],
  otpCheckCode: [json(a.verificationCodeCheckResponse)],
  mfaSignIn: [json(a.signInWithNewUserResponse)],
  initiatePasskeyRegistration: [json(a.initiatePasskeyRegistrationResponse)],
  registerPasskey: [json(a.registerPasskeyResponse)],
  initiatePasskeyAuthentication: [json(a.initiatePasskeyAuthenticationResponse)],
  passkeySignIn: [json(a.signInWithNewUserResponse)],
  // OAuth
  oauthAuthorize: [
    redirect(307, "To the identity provider (the emulator's mock provider page, or its mock OAuth server); sets the inner-state cookie."),
    json(a.oauthAuthorizeJsonResponse, 200, "With stack_response_mode=json: where to send the browser"),
  ],
  oauthCallbackGet: [
    redirect(303, "To the app's redirect_uri with code and state (body: {})."),
    redirect(307, "A refusal, to the app's error URL with the known error in the query (errorCode, message, details)."),
  ],
  oauthCallbackPost: [
    redirect(303, "To the app's redirect_uri with code and state (body: {})."),
    redirect(307, "A refusal, to the app's error URL with the known error in the query."),
  ],
  legacyConnectedAccountToken: [json(a.connectedAccountTokenResponse)],
  // CLI login
  cliCreate: [json(a.cliCreateResponse)],
  cliPoll: [json(a.cliPollResponse, 200, "Waiting, expired or used"), json(a.cliPollResponse, 201, "Success: the refresh token, once")],
  cliComplete: [json(a.cliCompleteResponse)],
  // Users and contact channels
  getMe: [view(a.userView)],
  updateMe: [view(a.userView)],
  deleteMe: [success],
  listUsers: [json(a.paginatedEnvelope(a.serverUser))],
  createUser: [created(a.serverUser)],
  getUser: [json(a.serverUser)],
  updateUser: [json(a.serverUser)],
  deleteUser: [success],
  listContactChannels: [json(a.listEnvelope(a.contactChannel))],
  createContactChannel: [created(a.contactChannel)],
  sendVerificationCodeLegacy: [success],
  verifyContactChannel: [success],
  checkContactChannelCode: [json(a.verificationCodeCheckResponse)],
  getContactChannel: [json(a.contactChannel)],
  updateContactChannel: [json(a.contactChannel)],
  deleteContactChannel: [success],
  sendContactChannelVerificationCode: [success],
  // OAuth provider links and connected accounts
  listOAuthProviders: [json(a.oauthProviderList)],
  createOAuthProvider: [created(a.serverOAuthProvider)],
  getOAuthProvider: [view(a.oauthProviderView)],
  updateOAuthProvider: [view(a.oauthProviderView)],
  deleteOAuthProvider: [success],
  listConnectedAccounts: [json(a.connectedAccountList)],
  connectedAccountToken: [json(a.connectedAccountTokenResponse, 201, "A provider access token (upstream's CRUD create answers 201)")],
  connectedAccountTokenByAccount: [json(a.connectedAccountTokenResponse, 201, "A provider access token (upstream's CRUD create answers 201)")],
  // Notification preferences, API keys, data vault
  listNotificationPreferences: [json(a.notificationPreferenceList)],
  updateNotificationPreference: [json(a.notificationPreference)],
  listUserApiKeys: [json(a.apiKeyList)],
  createUserApiKey: [json(a.userApiKeyFirstView)],
  checkUserApiKey: [json(a.userApiKey)],
  getUserApiKey: [json(a.userApiKey)],
  updateUserApiKey: [json(a.userApiKey)],
  listTeamApiKeys: [json(a.apiKeyList)],
  createTeamApiKey: [json(a.teamApiKeyFirstView)],
  checkTeamApiKey: [json(a.teamApiKey)],
  getTeamApiKey: [json(a.teamApiKey)],
  updateTeamApiKey: [json(a.teamApiKey)],
  dataVaultGet: [json(a.dataVaultGetResponse)],
  dataVaultSet: [success],
  // Teams, members, permissions, invitations
  listTeams: [view(a.teamListView)],
  createTeam: [view(a.teamView, 201)],
  getTeam: [view(a.teamView)],
  updateTeam: [view(a.teamView)],
  deleteTeam: [success],
  addTeamMember: [created(a.teamMembership)],
  removeTeamMember: [success],
  listTeamMemberProfiles: [view(a.teamMemberProfileListView)],
  getTeamMemberProfile: [view(a.teamMemberProfileView)],
  updateTeamMemberProfile: [view(a.teamMemberProfileView)],
  listTeamPermissions: [json(a.listEnvelope(a.teamPermission))],
  grantTeamPermission: [created(a.teamPermission)],
  revokeTeamPermission: [success],
  listProjectPermissions: [json(a.listEnvelope(a.projectPermission))],
  grantProjectPermission: [created(a.projectPermission)],
  revokeProjectPermission: [success],
  listTeamPermissionDefinitions: [json(a.permissionDefinitionList)],
  createTeamPermissionDefinition: [created(a.permissionDefinition)],
  updateTeamPermissionDefinition: [json(a.permissionDefinition)],
  deleteTeamPermissionDefinition: [success],
  listProjectPermissionDefinitions: [json(a.permissionDefinitionList)],
  createProjectPermissionDefinition: [created(a.permissionDefinition)],
  updateProjectPermissionDefinition: [json(a.permissionDefinition)],
  deleteProjectPermissionDefinition: [success],
  listTeamInvitations: [json(a.listEnvelope(a.teamInvitation))],
  sendTeamInvitation: [json(a.teamInvitationSendCodeResponse)],
  acceptTeamInvitation: [json(a.teamInvitationAcceptResponse)],
  checkTeamInvitationCode: [json(a.teamInvitationCheckCodeResponse)],
  teamInvitationDetails: [json(a.teamInvitationDetailsResponse)],
  acceptTeamInvitationById: [json(a.teamInvitationAcceptResponse)],
  revokeTeamInvitation: [success],
  // Projects and admin
  getCurrentProject: [json(a.clientProject)],
  getAdminProject: [json(a.adminProject)],
  updateAdminProject: [json(a.adminProject)],
  deleteAdminProject: [success],
  listOwnedProjects: [json(a.ownedProjectList)],
  createOwnedProject: [created(a.adminProject)],
  transferProject: [json(a.projectTransferResponse)],
  listInternalApiKeys: [json(a.internalApiKeyList)],
  createInternalApiKey: [json(a.internalApiKeyFirstView)],
  getInternalApiKey: [json(a.internalApiKey)],
  updateInternalApiKey: [json(a.internalApiKey)],
  getConfig: [json(a.configResponse)],
  getConfigOverride: [json(a.configResponse)],
  updateConfigOverride: [success],
  replaceConfigOverride: [success],
  updateConfigOverrideLevel: [success],
  resetConfigOverrideKeys: [success],
  getConfigSource: [json(a.configSourceResponse)],
  unlinkConfigSource: [success],
  testSignUpRules: [json(a.signUpRulesTestResponse)],
  signUpRulesStats: [json(a.signUpRulesStatsResponse)],
  svixToken: [json(a.svixTokenResponse)],
  metrics: [json(a.metricsResponse)],
  // Email
  sendTestEmail: [json(a.sendTestEmailResponse)],
  listSentEmails: [json(a.sentEmailList)],
  sendSignInInvitation: [success],
  listEmailTemplates: [json(a.emailTemplateList)],
  createEmailTemplate: [json(a.createdId)],
  updateEmailTemplate: [json(a.emailTemplateUpdated)],
  deleteEmailTemplate: [json(a.emptyObject)],
  listEmailThemes: [json(a.emailThemeList)],
  createEmailTheme: [json(a.createdId)],
  getEmailTheme: [json(a.emailTheme)],
  updateEmailTheme: [json(a.emailThemeUpdated)],
  deleteEmailTheme: [success],
  listEmailDrafts: [json(a.emailDraftList)],
  createEmailDraft: [json(a.createdId)],
  updateEmailDraft: [json(a.emailDraftOk)],
  deleteEmailDraft: [json(a.emailDraftOk)],
  renderEmail: [json(a.renderEmailResponse)],
  sendEmail: [json(a.sendEmailResponse)],
  emailDeliveryInfo: [json(a.emailDeliveryInfo)],
  listOutboxEmails: [json(a.outboxEmailList)],
  getOutboxEmail: [json(a.outboxEmail)],
  updateOutboxEmail: [json(a.outboxEmail)],
  activateCapacityBoost: [json(a.capacityBoostResponse)],
  unsubscribeLink: [text("An HTML page saying the category was turned off (or already was).")],
  getEmailDraft: [json(a.emailDraft)],
  rewriteTemplateSource: [json(a.rewriteTemplateSourceResponse)],
  emailQueueStep: [json(a.emailQueueStepResponse)],
  failedEmailsDigest: [json(a.failedEmailsDigestResponse)],
  componentVersions: [json(a.componentVersions)],
  sendFeedback: [success],
  getChangelog: [json(a.changelogResponse)],
  sendTestWebhook: [json(a.sendTestWebhookResponse)],
  localEmulatorProject: [json(a.localEmulatorProjectResponse)],
  aiChatCreate: [json(a.aiChatCreateResponse)],
  aiChatUpdate: [success],
  aiChatGet: [json(a.aiChatMessages)],
  aiQuery: [json(a.aiQueryResponse)],
  // Payments
  getItem: [json(a.itemJson)],
  updateItemQuantity: [json(a.updateItemQuantityResponse)],
  createPurchaseUrl: [json(a.createPurchaseUrlResponse)],
  getBilling: [json(a.billingResponse)],
  listCustomerProducts: [json(a.customerProductsResponse)],
  grantProduct: [json(a.grantProductResponse)],
  cancelProduct: [json(a.cancelProductResponse)],
  validatePurchaseCode: [json(a.validatePurchaseCodeResponse)],
  checkPurchaseCode: [json(a.purchaseCodeCheckResponse)],
  purchaseSession: [json(a.purchaseSessionResponse)],
  getPaymentMethodConfigs: [json(a.paymentMethodConfigsResponse)],
  updatePaymentMethodConfigs: [json(a.updatePaymentMethodConfigsResponse)],
  paymentsSetup: [json(a.paymentsSetupResponse)],
  stripeAccountInfo: [json(a.stripeAccountInfo)],
  stripeWidgetSession: [json(a.stripeWidgetSessionResponse)],
  listTransactions: [json(a.listTransactionsResponse)],
  testModePurchaseSession: [success],
  refundTransaction: [success],
  switchPlan: [success],
  stripeWebhook: [json(a.stripeWebhookResponse)],
  // Telemetry sinks: accepted and discarded
  analyticsBatch: [json(a.emptyObject)],
  // Session replays
  sessionReplayBatch: [json(a.sessionReplayBatchResponse)],
  listSessionReplays: [json(a.sessionReplayList)],
  listSessionReplayChunks: [json(a.sessionReplayChunkList)],
  getSessionReplayChunkEvents: [json(a.sessionReplayChunkEvents)],
  getSessionReplayEvents: [json(a.sessionReplayEvents)],
};
