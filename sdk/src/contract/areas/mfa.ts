import { z } from "zod";
import { defineOperations, json } from "../define-operations.ts";
import { signInWithNewUserResponse } from "./sessions.ts";

/** TOTP multi-factor sign-in (protocol.md §7.4; spec §7 "/auth/mfa/sign-in {type totp, totp, code}"). */

/** `code` is the attempt code of MULTI_FACTOR_AUTHENTICATION_REQUIRED's details; `totp` the 6-digit RFC 6238 code. */
export const mfaSignInBody = z.strictObject({
  type: z.literal("totp"),
  totp: z.string(),
  code: z.string(),
});

/** RFC 6238 parameters the provider checks with (protocol.md §7.4): SHA-1, 6 digits, 30-second steps. */
export const TOTP_PARAMETERS = { algorithm: "SHA1", digits: 6, periodSeconds: 30 } as const;

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const mfaOperations = defineOperations("mfa", {
  mfaSignIn: {
    method: "POST",
    path: "/auth/mfa/sign-in",
    access: "client",
    body: mfaSignInBody,
    errors: [
      "INVALID_TOTP_CODE",
      "VERIFICATION_CODE_ALREADY_USED",
      "VERIFICATION_CODE_EXPIRED",
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
      "VERIFICATION_CODE_NOT_FOUND",
    ],
    responses: [json(signInWithNewUserResponse)],
  },
});
