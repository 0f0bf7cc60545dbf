import type { KnownErrorCode } from "../contract/errors.ts";
import type { OperationId } from "../contract/operations.ts";

/**
 * The known errors each SDK call turns into a result (or a null) instead of throwing, by the contract operation it
 * calls (issue 18). Each list is the published SDK's (sdk-surface.md §9b: the Result types of its methods), so it names
 * ancestors (VERIFICATION_ERROR catches every code below it) and is not derived from the contract's `errors`; instead
 * caught-errors.test.ts holds each code against the operation's `errors` in its definition (sdk/src/contract/areas/): a code the
 * operation may answer, an ancestor of one, or a code the test names with the reason it is caught all the same.
 */
export const caughtErrors = {
  passwordSignUp: ["USER_EMAIL_ALREADY_EXISTS", "PASSWORD_REQUIREMENTS_NOT_MET", "BOT_CHALLENGE_FAILED"],
  passwordSignIn: ["EMAIL_PASSWORD_MISMATCH", "INVALID_TOTP_CODE"],
  sendSignInCode: ["REDIRECT_URL_NOT_WHITELISTED", "BOT_CHALLENGE_FAILED"],
  otpSignIn: ["VERIFICATION_ERROR", "INVALID_TOTP_CODE"],
  mfaSignIn: ["INVALID_TOTP_CODE", "VERIFICATION_ERROR"],
  registerPasskey: ["PASSKEY_REGISTRATION_FAILED", "PASSKEY_WEBAUTHN_ERROR"],
  passkeySignIn: ["PASSKEY_AUTHENTICATION_FAILED", "INVALID_TOTP_CODE", "PASSKEY_WEBAUTHN_ERROR"],
  sendResetCode: ["USER_NOT_FOUND"],
  checkResetCode: ["VERIFICATION_ERROR"],
  resetPassword: ["VERIFICATION_ERROR"],
  updatePassword: ["PASSWORD_CONFIRMATION_MISMATCH", "PASSWORD_REQUIREMENTS_NOT_MET"],
  setPassword: ["PASSWORD_REQUIREMENTS_NOT_MET"],
  verifyContactChannel: ["VERIFICATION_ERROR"],
  sendVerificationCodeLegacy: ["EMAIL_ALREADY_VERIFIED"],
  checkTeamInvitationCode: ["VERIFICATION_ERROR", "TEAM_INVITATION_EMAIL_MISMATCH"],
  acceptTeamInvitation: ["VERIFICATION_ERROR", "TEAM_INVITATION_EMAIL_MISMATCH"],
  teamInvitationDetails: ["VERIFICATION_ERROR", "TEAM_INVITATION_EMAIL_MISMATCH"],
  updateOAuthProvider: ["OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"],
  createOAuthProvider: ["OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"],
  /** A server user's setPassword (PATCH /users/{id} with a password). */
  updateUser: ["PASSWORD_REQUIREMENTS_NOT_MET"],
  /** A connected account's token: these give no token (null), not an error (spec §8). */
  connectedAccountToken: [
    "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
    "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE",
  ],
  connectedAccountTokenByAccount: [
    "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
    "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE",
  ],
} as const satisfies { readonly [Id in OperationId]?: readonly KnownErrorCode[] };
