import { z } from "zod";

/** TOTP multi-factor sign-in (protocol.md §7.4; spec §7 "/auth/mfa/sign-in {type totp, totp, code}"). */

/** `code` is the attempt code of MULTI_FACTOR_AUTHENTICATION_REQUIRED's details; `totp` the 6-digit RFC 6238 code. */
export const mfaSignInBody = z.strictObject({
  type: z.literal("totp"),
  totp: z.string(),
  code: z.string(),
});

/** RFC 6238 parameters the provider checks with (protocol.md §7.4): SHA-1, 6 digits, 30-second steps. */
export const TOTP_PARAMETERS = { algorithm: "SHA1", digits: 6, periodSeconds: 30 } as const;
