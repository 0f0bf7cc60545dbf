import { z } from "zod";
import { botChallengeFields } from "./common.ts";

/** One-time code and magic-link sign-in (protocol.md §6.2, §7.2). */

export const sendSignInCodeBody = z.strictObject({ email: z.string().max(254).email(), callback_url: z.string().url(), ...botChallengeFields });
/** The rest of the 45-character code after the 6-character OTP: the client keeps it and sends OTP + nonce back. */
export const sendSignInCodeResponse = z.object({ nonce: z.string() });
/** Lengths of the two halves of a sign-in code (protocol.md §7.2). */
export const OTP_LENGTH = 6;
export const SIGN_IN_CODE_LENGTH = 45;
