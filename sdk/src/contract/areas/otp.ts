import { z } from "zod";
import { botChallengeFields } from "./common.ts";
import { defineOperations, json } from "../define-operations.ts";
import { verificationCodeBody, verificationCodeCheckResponse } from "./contact-channels.ts";
import { signInWithNewUserResponse } from "./sessions.ts";

/** One-time code and magic-link sign-in (protocol.md §6.2, §7.2). */

export const sendSignInCodeBody = z.strictObject({
  email: z.string().max(254).email(),
  callback_url: z.string().url(),
  ...botChallengeFields,
});
/** The rest of the 45-character code after the 6-character OTP: the client keeps it and sends OTP + nonce back. */
export const sendSignInCodeResponse = z.object({ nonce: z.string() });
/** Lengths of the two halves of a sign-in code (protocol.md §7.2). */
export const OTP_LENGTH = 6;
export const SIGN_IN_CODE_LENGTH = 45;

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const otpOperations = defineOperations("otp", {
  sendSignInCode: {
    method: "POST",
    path: "/auth/otp/send-sign-in-code",
    access: "client",
    body: sendSignInCodeBody,
    errors: ["REDIRECT_URL_NOT_WHITELISTED", "SIGN_UP_NOT_ENABLED", "USER_EMAIL_ALREADY_EXISTS"],
    responses: [json(sendSignInCodeResponse)],
  },
  otpSignIn: {
    method: "POST",
    path: "/auth/otp/sign-in",
    access: "client",
    body: verificationCodeBody,
    errors: [
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
      "SIGN_UP_NOT_ENABLED",
      "SIGN_UP_REJECTED",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_EMAIL_ALREADY_EXISTS",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(signInWithNewUserResponse)],
  },
  otpCheckCode: {
    method: "POST",
    path: "/auth/otp/sign-in/check-code",
    access: "client",
    body: verificationCodeBody,
    errors: [
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(verificationCodeCheckResponse)],
  },
});
