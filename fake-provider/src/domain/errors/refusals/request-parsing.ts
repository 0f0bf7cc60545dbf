import type { Arg, Refusal } from "./refusal.ts";

/** Plain-text refusals of reading a request: its body and its protocol headers (api/http, api/auth). */
export const requestParsingRefusals = {
  // api/http/parse.ts: worded as the real service's own (its session-replay batch's); the limit is the emulator's.
  requestBodyTooLarge: { status: 413, text: (limit: Arg) => `Request body too large (max ${limit} bytes)` },
  // api/auth/parse-auth.ts
  adminTokenUserGone: {
    status: 401,
    text: "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again.",
  },
} as const satisfies Readonly<Record<string, Refusal>>;
