import { describe, expect, it } from "vitest";
import { isKnownErrorOf, type KnownErrorCode } from "../contract/errors.ts";
import { operationDefinitions } from "../contract/operations.ts";
import { caughtErrors } from "./caught-errors.ts";

/**
 * Each code a call catches, held to the contract's `errors` of the operation it calls (its definition in sdk/src/contract/areas/):
 * the operation may answer it, or one of its descendants. A code it cannot answer is caught only because the published
 * SDK's types name it; each such code is listed here with where it comes from, so a new one, or a contract entry that
 * starts listing one of these, fails the test and is looked at.
 */
const caughtBeyondContract: Readonly<Record<string, Readonly<Partial<Record<KnownErrorCode, string>>>>> = {
  passwordSignUp: { BOT_CHALLENGE_FAILED: "the service's bot challenge (Turnstile), which the emulator does not run" },
  sendSignInCode: { BOT_CHALLENGE_FAILED: "the service's bot challenge (Turnstile), which the emulator does not run" },
  passwordSignIn: {
    INVALID_TOTP_CODE:
      "the published SignInError names it; a second factor is asked by MULTI_FACTOR_AUTHENTICATION_REQUIRED and checked by /auth/mfa/sign-in",
  },
  otpSignIn: {
    INVALID_TOTP_CODE: "the published MagicLinkSignInError names it; the second factor is checked by /auth/mfa/sign-in",
  },
  passkeySignIn: {
    INVALID_TOTP_CODE: "the published PasskeySignInError names it; the second factor is checked by /auth/mfa/sign-in",
    PASSKEY_WEBAUTHN_ERROR: "made by the SDK from the browser's WebAuthn failure (spec §8), never sent by the service",
  },
  registerPasskey: {
    PASSKEY_WEBAUTHN_ERROR: "made by the SDK from the browser's WebAuthn failure (spec §8), never sent by the service",
  },
  sendResetCode: {
    USER_NOT_FOUND: "the published sendForgotPasswordEmail names it; the service answers alike for unknown addresses",
  },
  checkTeamInvitationCode: {
    TEAM_INVITATION_EMAIL_MISMATCH:
      "the published TeamInvitationCodeError covers the three code calls; the mirrored service checks no address on any",
  },
  acceptTeamInvitation: {
    TEAM_INVITATION_EMAIL_MISMATCH:
      "the published TeamInvitationCodeError covers the three code calls; the mirrored accept handler checks no address",
  },
  teamInvitationDetails: {
    TEAM_INVITATION_EMAIL_MISMATCH:
      "the published TeamInvitationCodeError covers the three code calls; the mirrored service checks no address on any",
  },
  updateUser: {
    PASSWORD_REQUIREMENTS_NOT_MET:
      "the published ServerUser.setPassword names it; PATCH /users/{id} does not check the password rules",
  },
  connectedAccountToken: {
    OAUTH_ACCESS_TOKEN_NOT_AVAILABLE:
      "the SDK's own answer when no token comes (oauth-providers.ts); caught in case a service sends it",
  },
  connectedAccountTokenByAccount: {
    OAUTH_ACCESS_TOKEN_NOT_AVAILABLE:
      "the SDK's own answer when no token comes (oauth-providers.ts); caught in case a service sends it",
  },
};

const entries = Object.entries(caughtErrors) as [keyof typeof caughtErrors, readonly KnownErrorCode[]][];

describe("the errors SDK calls catch, against the contract", () => {
  it.each(entries)(
    "%s: each caught code is one the operation may answer (or an ancestor of one), or a listed exception",
    (id, caught) => {
      const answers: readonly KnownErrorCode[] = operationDefinitions[id].errors;
      const exceptions = caughtBeyondContract[id] ?? {};
      for (const code of caught) {
        const covered = answers.filter((answer) => isKnownErrorOf(answer, code));
        if (code in exceptions) expect(covered, `${id} now answers ${code}: drop its exception`).toEqual([]);
        else expect(covered, `${id} catches ${code}, which the contract says it never answers`).not.toEqual([]);
      }
    },
  );

  it("lists no exception for a code a call does not catch", () => {
    for (const [id, codes] of Object.entries(caughtBeyondContract)) {
      const caught: readonly string[] = caughtErrors[id as keyof typeof caughtErrors];
      expect(
        Object.keys(codes).filter((code) => !caught.includes(code)),
        id,
      ).toEqual([]);
    }
  });
});
