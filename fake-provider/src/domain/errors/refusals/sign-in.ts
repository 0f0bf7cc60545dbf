import type { Refusal } from "./refusal.ts";

/** Plain-text refusals of sign-in: CLI, OTP, password, sessions (domain/ops/sign-in/). */
export const signInRefusals = {
  // domain/ops/sign-in/cli-auth.ts
  invalidAnonRefreshToken: { status: 400, text: "Invalid anon refresh token", operations: ["cliCreate"] },
  providedRefreshTokenDoesBelong: {
    status: 400,
    text: "The provided refresh token does not belong to an anonymous user",
  },
  noAnonymousSessionAssociatedCode: { status: 400, text: "No anonymous session associated with this code" },
  refreshTokenRequiredWhenMode: { status: 400, text: "refresh_token is required when mode is 'complete'" },
  invalidRefreshToken: { status: 400, text: "Invalid refresh token" },
  // domain/ops/sign-in/otp.ts
  otpSignEnabledProject: { status: 403, text: "OTP sign-in is not enabled for this project" },
  // domain/ops/sign-in/password.ts
  userAlreadyPasswordSet: { status: 400, text: "User already has a password set.", operations: ["setPassword"] },
  // domain/ops/sign-in/session-list.ts
  sessionNotFound: { status: 404, text: "Session not found.", operations: ["deleteSession"] },
} as const satisfies Readonly<Record<string, Refusal>>;
