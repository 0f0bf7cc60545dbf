import type { z } from "zod";
import * as c from "@authsim/sdk/contract";

/**
 * The request shapes the fuzzer builds valid-ish requests from, by operation id: the contract's own zod schemas
 * (design rule 3: arbitraries derive from the schemas). Where client and server take different bodies, the server one
 * (a superset) is used. An operation missing here gets bodies from the field vocabulary of request-arb.ts, which is
 * what a newly added operation falls back to until someone maps it.
 */
export interface Shape {
  body?: z.ZodType;
  /** The narrower body a client may send, drawn twice as often (a server body sent by a client is a SCHEMA_ERROR). */
  clientBody?: z.ZodType;
  query?: z.ZodType;
  /** The token endpoint takes a form, not JSON (protocol.md §4.4). */
  form?: boolean;
  /** Takes no body (or `{}`): a valid-ish request sends none. */
  noBody?: boolean;
}

const none: Shape = { noBody: true };

export const shapes: Partial<Record<string, Shape>> = {
  anonymousSignUp: none,
  deleteCurrentSession: none,
  refreshCurrentSession: none,
  deleteMe: none,
  deleteUser: none,
  deleteContactChannel: none,
  deleteTeam: none,
  addTeamMember: none,
  removeTeamMember: none,
  grantTeamPermission: none,
  revokeTeamPermission: none,
  grantProjectPermission: none,
  revokeProjectPermission: none,
  deleteTeamPermissionDefinition: none,
  deleteProjectPermissionDefinition: none,
  paymentsSetup: none,
  stripeWidgetSession: none,
  passwordSignUp: { body: c.passwordSignUpBody },
  passwordSignIn: { body: c.passwordSignInBody },
  sendResetCode: { body: c.sendResetCodeBody },
  resetPassword: { body: c.resetPasswordBody },
  checkResetCode: { body: c.verificationCodeBody },
  updatePassword: { body: c.updatePasswordBody },
  setPassword: { body: c.setPasswordBody },
  sendSignInCode: { body: c.sendSignInCodeBody },
  otpSignIn: { body: c.verificationCodeBody },
  otpCheckCode: { body: c.verificationCodeBody },
  oauthToken: { body: c.refreshGrantForm, form: true },
  createSession: { body: c.createSessionBody },
  listSessions: { query: c.sessionListQuery },
  deleteSession: { query: c.sessionDeleteQuery, noBody: true },
  updateMe: { body: c.serverUserUpdate, clientBody: c.clientUserUpdate },
  listUsers: { query: c.userListQuery },
  createUser: { body: c.serverUserCreate },
  updateUser: { body: c.serverUserUpdate },
  listContactChannels: { query: c.contactChannelListQuery },
  createContactChannel: { body: c.serverContactChannelCreate, clientBody: c.clientContactChannelCreate },
  sendVerificationCodeLegacy: { body: c.sendPrimaryVerificationBody },
  verifyContactChannel: { body: c.verificationCodeBody },
  checkContactChannelCode: { body: c.verificationCodeBody },
  updateContactChannel: { body: c.serverContactChannelUpdate, clientBody: c.clientContactChannelUpdate },
  sendContactChannelVerificationCode: { body: c.sendChannelVerificationBody },
  updateNotificationPreference: { body: c.notificationPreferenceUpdate },
  listUserApiKeys: { query: c.userApiKeyListQuery },
  createUserApiKey: { body: c.userApiKeyCreate },
  checkUserApiKey: { body: c.apiKeyCheckBody },
  getUserApiKey: { query: c.userApiKeyItemQuery },
  updateUserApiKey: { body: c.apiKeyUpdate, query: c.userApiKeyItemQuery },
  listTeamApiKeys: { query: c.teamApiKeyListQuery },
  createTeamApiKey: { body: c.teamApiKeyCreate },
  checkTeamApiKey: { body: c.apiKeyCheckBody },
  getTeamApiKey: { query: c.teamApiKeyItemQuery },
  updateTeamApiKey: { body: c.apiKeyUpdate, query: c.teamApiKeyItemQuery },
  dataVaultGet: { body: c.dataVaultGetBody },
  dataVaultSet: { body: c.dataVaultSetBody },
  listTeams: { query: c.teamListQuery },
  createTeam: { body: c.serverTeamCreate, clientBody: c.clientTeamCreate },
  updateTeam: { body: c.serverTeamUpdate, clientBody: c.clientTeamUpdate },
  listTeamMemberProfiles: { query: c.teamMemberProfileListQuery },
  updateTeamMemberProfile: { body: c.teamMemberProfileUpdate },
  listTeamPermissions: { query: c.teamPermissionListQuery },
  listProjectPermissions: { query: c.projectPermissionListQuery },
  listTeamPermissionDefinitions: { query: c.permissionDefinitionListQuery },
  createTeamPermissionDefinition: { body: c.permissionDefinitionCreate },
  updateTeamPermissionDefinition: { body: c.permissionDefinitionUpdate },
  listProjectPermissionDefinitions: { query: c.permissionDefinitionListQuery },
  createProjectPermissionDefinition: { body: c.permissionDefinitionCreate },
  updateProjectPermissionDefinition: { body: c.permissionDefinitionUpdate },
  listTeamInvitations: { query: c.teamInvitationListQuery },
  sendTeamInvitation: { body: c.teamInvitationSendCode },
  acceptTeamInvitation: { body: c.teamInvitationCodeBody },
  checkTeamInvitationCode: { body: c.teamInvitationCodeBody },
  teamInvitationDetails: { body: c.teamInvitationCodeBody },
  acceptTeamInvitationById: { query: c.teamInvitationAcceptByIdQuery, noBody: true },
  revokeTeamInvitation: { query: c.teamInvitationRevokeQuery, noBody: true },
  createInternalApiKey: { body: c.internalApiKeyCreate },
  updateInternalApiKey: { body: c.internalApiKeyUpdate },
  updateItemQuantity: { body: c.updateItemQuantityBody, query: c.updateItemQuantityQuery },
  createPurchaseUrl: { body: c.createPurchaseUrlBody },
  listTransactions: { query: c.listTransactionsQuery },
  testModePurchaseSession: { body: c.testModePurchaseBody },
};
