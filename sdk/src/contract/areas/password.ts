import { z } from "zod";

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
