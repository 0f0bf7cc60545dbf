import { z } from "zod";
import { defineOperations, json, success } from "../define-operations.ts";
import { verificationCodeBody, verificationCodeCheckResponse } from "./contact-channels.ts";

/** Password reset, update and set (spec §4 "Password reset", §7 Auth; protocol.md §6.2, §7.3). */

export const sendResetCodeBody = z.strictObject({ email: z.string().max(254), callback_url: z.string().url() });
/**
 * The one answer of send-reset-code, whether or not a user has that email: the service does not reveal which
 * addresses exist (protocol.md §6.2).
 */
export const SEND_RESET_CODE_ANSWER = "maybe, only if user with e-mail exists";
export const sendResetCodeResponse = z.object({ success: z.literal(SEND_RESET_CODE_ANSWER) });

export const resetPasswordBody = z.strictObject({ code: z.string().min(1).max(256), password: z.string() });
export const updatePasswordBody = z.strictObject({ old_password: z.string(), new_password: z.string() });
export const setPasswordBody = z.strictObject({ password: z.string() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const passwordOperations = defineOperations("password", {
  sendResetCode: {
    method: "POST",
    path: "/auth/password/send-reset-code",
    access: "client",
    body: sendResetCodeBody,
    errors: ["PASSWORD_AUTHENTICATION_NOT_ENABLED", "REDIRECT_URL_NOT_WHITELISTED"],
    responses: [json(sendResetCodeResponse)],
  },
  resetPassword: {
    method: "POST",
    path: "/auth/password/reset",
    access: "client",
    body: resetPasswordBody,
    errors: [
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      "PASSWORD_TOO_LONG",
      "PASSWORD_TOO_SHORT",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_EMAIL_ALREADY_EXISTS",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [success],
  },
  checkResetCode: {
    method: "POST",
    path: "/auth/password/reset/check-code",
    access: "client",
    body: verificationCodeBody,
    errors: [
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(verificationCodeCheckResponse)],
  },
  updatePassword: {
    method: "POST",
    path: "/auth/password/update",
    access: "client",
    body: updatePasswordBody,
    errors: [
      "PASSWORD_CONFIRMATION_MISMATCH",
      "PASSWORD_TOO_LONG",
      "PASSWORD_TOO_SHORT",
      "SCHEMA_ERROR",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_DOES_NOT_HAVE_PASSWORD",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [success],
  },
  setPassword: {
    method: "POST",
    path: "/auth/password/set",
    access: "client",
    body: setPasswordBody,
    errors: [
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
      "PASSWORD_TOO_LONG",
      "PASSWORD_TOO_SHORT",
      "SCHEMA_ERROR",
      "TEAM_MEMBERSHIP_ALREADY_EXISTS",
      "USER_EMAIL_ALREADY_EXISTS",
    ],
    responses: [success],
  },
});
