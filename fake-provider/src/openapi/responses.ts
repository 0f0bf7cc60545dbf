import { z } from "zod";
import * as c from "@authsim/sdk/contract";

/**
 * What each operation answers, by contract operation id, in terms of the contract's response schemas (the ones our SDK
 * parses answers with). operations.ts records method, path and access but not responses, so they are listed here; an
 * operation missing from this table is documented as "200, body not described". Statuses follow the routes (201 for
 * CRUD creates, 200 for upstream's custom routes, 3xx for the OAuth redirects).
 */
export type ResponseDoc =
  | { kind: "json"; status: number; schema: z.ZodType; description: string }
  | { kind: "text"; status: number; description: string }
  | { kind: "redirect"; status: number; description: string };

const json = (schema: z.ZodType, status = 200, description = "Success"): ResponseDoc => ({ kind: "json", status, schema, description });
const created = (schema: z.ZodType): ResponseDoc => json(schema, 201, "Created");
const success = json(c.successResponse);
const text = (description: string): ResponseDoc => ({ kind: "text", status: 200, description });
const redirect = (status: number, description: string): ResponseDoc => ({ kind: "redirect", status, description });

/** A view chosen by who calls: clients get the client view, servers and admins the server view. */
const byAccess = (client: z.ZodType, server: z.ZodType) =>
  z.union([client, server]).describe("The client view for client access; the server view for server and admin access.");

const userView = byAccess(c.clientUser, c.serverUser);
const teamView = byAccess(c.clientTeam, c.serverTeam);
const teamList = byAccess(c.teamListEnvelope(c.clientTeam), c.teamListEnvelope(c.serverTeam));
const memberProfileView = byAccess(c.clientTeamMemberProfile, c.serverTeamMemberProfile);
const memberProfileList = byAccess(c.listEnvelope(c.clientTeamMemberProfile), c.listEnvelope(c.serverTeamMemberProfile));
const oauthProviderView = byAccess(c.clientOAuthProvider, c.serverOAuthProvider);
const emptyObject = z.object({});

/** Component names for the schemas made here that several operations share (the contract's own keep their names). */
export const sharedResponseNames: ReadonlyMap<z.ZodType, string> = new Map<z.ZodType, string>([
  [userView, "userView"],
  [teamView, "teamView"],
  [teamList, "teamListView"],
  [memberProfileView, "teamMemberProfileView"],
  [memberProfileList, "teamMemberProfileListView"],
  [oauthProviderView, "oauthProviderView"],
  [emptyObject, "emptyObject"],
]);

export const responseDocs: Readonly<Record<string, readonly ResponseDoc[]>> = {
  // Root and meta
  root: [text("Plain text: a welcome line and who the request authenticated as (Authentication: None, or type, project, user).")],
  backendUrls: [json(z.object({ urls: z.array(z.string()) }))],
  checkFeatureSupport: [text("Plain text: the named feature is not supported.")],
  checkVersion: [json(c.checkVersionResponse)],
  jwks: [json(z.object({ keys: z.array(z.record(z.string(), z.unknown())) }), 200, "The project's JSON Web Key Set")],
  // Sessions and tokens
  passwordSignUp: [json(c.signInResponse)],
  passwordSignIn: [json(c.signInResponse)],
  anonymousSignUp: [json(c.signInResponse)],
  oauthToken: [json(c.tokenResponse), json(z.object({ error: z.string(), error_description: z.string() }), 400, "An OAuth error (RFC 6749 §5.2)")],
  createSession: [json(c.createSessionResponse)],
  listSessions: [json(c.sessionList)],
  deleteCurrentSession: [success],
  refreshCurrentSession: [json(z.object({ access_token: z.string() }))],
  deleteSession: [success],
  // Password, OTP, MFA, passkeys
  sendResetCode: [json(c.sendResetCodeResponse)],
  resetPassword: [success],
  checkResetCode: [json(c.verificationCodeCheckResponse)],
  updatePassword: [success],
  setPassword: [success],
  sendSignInCode: [json(c.sendSignInCodeResponse)],
  otpSignIn: [json(c.signInWithNewUserResponse)],
  otpCheckCode: [json(c.verificationCodeCheckResponse)],
  mfaSignIn: [json(c.signInWithNewUserResponse)],
  initiatePasskeyRegistration: [json(c.initiatePasskeyRegistrationResponse)],
  registerPasskey: [json(c.registerPasskeyResponse)],
  initiatePasskeyAuthentication: [json(c.initiatePasskeyAuthenticationResponse)],
  passkeySignIn: [json(c.signInWithNewUserResponse)],
  // OAuth
  oauthAuthorize: [
    redirect(307, "To the identity provider (the emulator's mock provider page); sets the inner-state cookie."),
    json(c.oauthAuthorizeJsonResponse, 200, "With stack_response_mode=json: where to send the browser"),
  ],
  oauthCallbackGet: [redirect(307, "To the app's redirect_uri with code and state, or to its error URL.")],
  oauthCallbackPost: [redirect(303, "To the app's redirect_uri with code and state, or to its error URL.")],
  legacyConnectedAccountToken: [json(c.connectedAccountTokenResponse)],
  // CLI login
  cliCreate: [json(c.cliCreateResponse)],
  cliPoll: [json(c.cliPollResponse, 200, "Waiting, expired or used"), json(c.cliPollResponse, 201, "Success: the refresh token, once")],
  cliComplete: [json(z.union([z.object({ success: z.literal(true) }), z.object({ cli_session_state: z.enum(["anonymous", "none"]) }), c.createSessionResponse]))],
  // Users and contact channels
  getMe: [json(userView)],
  updateMe: [json(userView)],
  deleteMe: [success],
  listUsers: [json(c.paginatedEnvelope(c.serverUser))],
  createUser: [created(c.serverUser)],
  getUser: [json(c.serverUser)],
  updateUser: [json(c.serverUser)],
  deleteUser: [success],
  listContactChannels: [json(c.listEnvelope(c.contactChannel))],
  createContactChannel: [created(c.contactChannel)],
  sendVerificationCodeLegacy: [success],
  verifyContactChannel: [success],
  checkContactChannelCode: [json(c.verificationCodeCheckResponse)],
  getContactChannel: [json(c.contactChannel)],
  updateContactChannel: [json(c.contactChannel)],
  deleteContactChannel: [success],
  sendContactChannelVerificationCode: [success],
  // OAuth provider links and connected accounts
  listOAuthProviders: [json(c.oauthProviderList)],
  createOAuthProvider: [created(c.serverOAuthProvider)],
  getOAuthProvider: [json(oauthProviderView)],
  updateOAuthProvider: [json(oauthProviderView)],
  deleteOAuthProvider: [success],
  listConnectedAccounts: [json(c.connectedAccountList)],
  connectedAccountToken: [json(c.connectedAccountTokenResponse)],
  connectedAccountTokenByAccount: [json(c.connectedAccountTokenResponse)],
  // Notification preferences, API keys, data vault
  listNotificationPreferences: [json(c.notificationPreferenceList)],
  updateNotificationPreference: [json(c.notificationPreference)],
  listUserApiKeys: [json(c.apiKeyList)],
  createUserApiKey: [json(c.userApiKeyFirstView)],
  checkUserApiKey: [json(c.userApiKey)],
  getUserApiKey: [json(c.userApiKey)],
  updateUserApiKey: [json(c.userApiKey)],
  listTeamApiKeys: [json(c.apiKeyList)],
  createTeamApiKey: [json(c.teamApiKeyFirstView)],
  checkTeamApiKey: [json(c.teamApiKey)],
  getTeamApiKey: [json(c.teamApiKey)],
  updateTeamApiKey: [json(c.teamApiKey)],
  dataVaultGet: [json(c.dataVaultGetResponse)],
  dataVaultSet: [success],
  // Teams, members, permissions, invitations
  listTeams: [json(teamList)],
  createTeam: [created(teamView)],
  getTeam: [json(teamView)],
  updateTeam: [json(teamView)],
  deleteTeam: [success],
  addTeamMember: [created(c.teamMembership)],
  removeTeamMember: [success],
  listTeamMemberProfiles: [json(memberProfileList)],
  getTeamMemberProfile: [json(memberProfileView)],
  updateTeamMemberProfile: [json(memberProfileView)],
  listTeamPermissions: [json(c.listEnvelope(c.teamPermission))],
  grantTeamPermission: [created(c.teamPermission)],
  revokeTeamPermission: [success],
  listProjectPermissions: [json(c.listEnvelope(c.projectPermission))],
  grantProjectPermission: [created(c.projectPermission)],
  revokeProjectPermission: [success],
  listTeamPermissionDefinitions: [json(c.permissionDefinitionList)],
  createTeamPermissionDefinition: [created(c.permissionDefinition)],
  updateTeamPermissionDefinition: [json(c.permissionDefinition)],
  deleteTeamPermissionDefinition: [success],
  listProjectPermissionDefinitions: [json(c.permissionDefinitionList)],
  createProjectPermissionDefinition: [created(c.permissionDefinition)],
  updateProjectPermissionDefinition: [json(c.permissionDefinition)],
  deleteProjectPermissionDefinition: [success],
  listTeamInvitations: [json(c.listEnvelope(c.teamInvitation))],
  sendTeamInvitation: [json(c.teamInvitationSendCodeResponse)],
  acceptTeamInvitation: [json(c.teamInvitationAcceptResponse)],
  checkTeamInvitationCode: [json(c.teamInvitationCheckCodeResponse)],
  teamInvitationDetails: [json(c.teamInvitationDetailsResponse)],
  acceptTeamInvitationById: [json(c.teamInvitationAcceptResponse)],
  revokeTeamInvitation: [success],
  // Projects and admin
  getCurrentProject: [json(c.clientProject)],
  getAdminProject: [json(c.adminProject)],
  updateAdminProject: [json(c.adminProject)],
  deleteAdminProject: [success],
  listOwnedProjects: [json(c.ownedProjectList)],
  createOwnedProject: [created(c.adminProject)],
  transferProject: [success],
  listInternalApiKeys: [json(c.internalApiKeyList)],
  createInternalApiKey: [json(c.internalApiKeyFirstView)],
  getInternalApiKey: [json(c.internalApiKey)],
  updateInternalApiKey: [json(c.internalApiKey)],
  getConfig: [json(c.configResponse)],
  getConfigOverride: [json(c.configResponse)],
  updateConfigOverride: [success],
  replaceConfigOverride: [success],
  updateConfigOverrideLevel: [success],
  svixToken: [json(c.svixTokenResponse)],
  metrics: [json(c.metricsResponse)],
  // Email
  sendTestEmail: [json(c.sendTestEmailResponse)],
  listSentEmails: [json(c.sentEmailList)],
  sendSignInInvitation: [success],
  listEmailTemplates: [json(c.emailTemplateList)],
  createEmailTemplate: [json(c.createdId)],
  updateEmailTemplate: [json(c.emailTemplateUpdated)],
  deleteEmailTemplate: [success],
  listEmailThemes: [json(c.emailThemeList)],
  createEmailTheme: [json(c.createdId)],
  getEmailTheme: [json(c.emailTheme)],
  updateEmailTheme: [success],
  deleteEmailTheme: [success],
  listEmailDrafts: [json(c.emailDraftList)],
  createEmailDraft: [json(c.createdId)],
  updateEmailDraft: [success],
  deleteEmailDraft: [success],
  renderEmail: [json(c.renderEmailResponse)],
  sendEmail: [json(c.sendEmailResponse)],
  emailDeliveryInfo: [json(c.emailDeliveryInfo)],
  aiChatCreate: [json(c.aiChatCreateResponse)],
  aiChatUpdate: [success],
  aiChatGet: [json(c.aiChatMessages)],
  // Payments
  getItem: [json(c.itemJson)],
  updateItemQuantity: [json(c.updateItemQuantityResponse)],
  createPurchaseUrl: [json(c.createPurchaseUrlResponse)],
  paymentsSetup: [json(c.paymentsSetupResponse)],
  stripeAccountInfo: [json(c.stripeAccountInfo)],
  stripeWidgetSession: [json(c.stripeWidgetSessionResponse)],
  listTransactions: [json(c.listTransactionsResponse)],
  testModePurchaseSession: [success],
  // Telemetry sinks: accepted and discarded
  analyticsBatch: [json(emptyObject)],
  sessionReplayBatch: [json(emptyObject)],
};
