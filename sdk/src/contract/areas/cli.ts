import { z } from "zod";
import { createSessionResponse } from "./sessions.ts";
import { defineOperations, json } from "../define-operations.ts";

/** Command-line login (protocol.md §7.7; spec §4 "Command-line login polling", §7, §8 "CLI auth", §9). */

/** Default 2 hours, at most 24 hours (protocol.md §7.7). */
export const CLI_LOGIN_DEFAULT_EXPIRES_IN_MILLIS = 2 * 60 * 60 * 1000;
export const CLI_LOGIN_MAX_EXPIRES_IN_MILLIS = 24 * 60 * 60 * 1000;

export const cliCreateBody = z.union([
  z.undefined(),
  z.strictObject({
    expires_in_millis: z.number().int().positive().max(CLI_LOGIN_MAX_EXPIRES_IN_MILLIS).optional(),
    anon_refresh_token: z.string().optional(),
  }),
]);
export const cliCreateResponse = z.object({ polling_code: z.string(), login_code: z.string(), expires_at: z.string() });

export const cliPollBody = z.strictObject({ polling_code: z.string() });
/** `success` (with the refresh token, status 201) is answered once; every later poll says `used`. */
export const cliPollStatus = z.enum(["waiting", "success", "expired", "used"]);
export const cliPollResponse = z.object({ status: cliPollStatus, refresh_token: z.string().optional() });

export const cliCompleteBody = z.strictObject({
  login_code: z.string(),
  mode: z.enum(["check", "claim-anon-session", "complete"]).optional(),
  refresh_token: z.string().optional(),
});
/** By mode: `complete` (default) answers success, `check` which session the CLI holds, `claim-anon-session` its tokens. */
export const cliCompleteResponse = z.union([
  z.object({ success: z.literal(true) }),
  z.object({ cli_session_state: z.enum(["anonymous", "none"]) }),
  createSessionResponse,
]);

/** Spec §8 "CLI auth" messages (the SDK's polling loop reports them). */
export const CLI_MESSAGES = {
  expired: "CLI authentication request expired. Please try again.",
  used: "This authentication token has already been used.",
  timeout: "Timed out waiting for CLI authentication.",
  /** The plain 400 of /auth/cli/complete for a login code that is not pending (unknown, expired or already used). */
  invalidLoginCode: "Invalid login code or the code has expired",
} as const;

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const cliOperations = defineOperations("cli", {
  cliCreate: {
    method: "POST",
    path: "/auth/cli",
    access: "client",
    body: cliCreateBody,
    errors: [],
    responses: [json(cliCreateResponse)],
  },
  cliPoll: {
    method: "POST",
    path: "/auth/cli/poll",
    access: "client",
    body: cliPollBody,
    errors: ["INVALID_POLLING_CODE"],
    responses: [
      json(cliPollResponse, 200, "Waiting, expired or used"),
      json(cliPollResponse, 201, "Success: the refresh token, once"),
    ],
  },
  cliComplete: {
    method: "POST",
    path: "/auth/cli/complete",
    access: "client",
    body: cliCompleteBody,
    errors: ["RESTRICTED_USER_NOT_ALLOWED"],
    responses: [json(cliCompleteResponse)],
  },
});
