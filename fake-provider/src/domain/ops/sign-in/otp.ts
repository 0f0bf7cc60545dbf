import type { SignInResponse } from "@authsim/sdk/contract";
import type { WithUnsignedToken } from "../../auth/tokens.ts";
import { linkWithCode } from "../../email/templates.ts";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import { fixedOtpFor } from "./fixed-otp.ts";
import type { AuthedContext, OpContext } from "../context.ts";
import { sendEmail } from "../emails/outbox.ts";
import { authChannelFor } from "../users/primary-channel.ts";
import { signInResponseFor } from "./sessions.ts";
import { signInOrRequireMfa } from "./mfa.ts";
import { applySignUpRules } from "./sign-up-rules.ts";
import { newUserRecord, saveUser } from "../users/users.ts";
import { createCode, otpOf, redeemCode } from "./verification-codes.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * One-time code and magic-link sign-in (protocol.md §7.2). One 45-character code per email: the link carries it
 * whole, the email shows its first 6 characters upper-cased, and the answer returns the other 39 (the nonce).
 */

function assertOtpEnabled(project: ProjectRecord): void {
  // Upstream answers a plain 403 here; the catalogue has no code for it.
  if (!project.config.magic_link_enabled) throw refusal("otpSignEnabledProject");
}

/**
 * Who the address signs in as, as upstream decides it both when sending and when signing in: a verified used-for-auth
 * channel names its user; an unverified one is USER_EMAIL_ALREADY_EXISTS (it would work once verified); none means a
 * new user, if sign-up is open. For existing verified addresses and new ones the answers are alike, so sending does
 * not tell whether an account exists.
 */
function userForEmail(ctx: OpContext, project: ProjectRecord, email: string): UserRecord | null {
  const channel = authChannelFor(ctx.tables, project.id, email);
  if (channel) {
    if (!channel.isVerified)
      throw knownError("USER_EMAIL_ALREADY_EXISTS", { email: channel.value, would_work_if_email_was_verified: true });
    const user = ctx.tables.users.get(channel.userId);
    if (user) return user;
  }
  if (!project.config.sign_up_enabled) throw knownError("SIGN_UP_NOT_ENABLED");
  return null;
}

export function sendSignInCode(
  ctx: OpContext,
  project: ProjectRecord,
  body: { email: string; callback_url: string },
): { nonce: string } {
  assertOtpEnabled(project);
  assertTrustedCallback(project, body.callback_url);
  userForEmail(ctx, project, body.email);
  const fixedOtp = fixedOtpFor(ctx.settings.fixedOtp, body.email);
  // The sending request's country goes with the code: a new user made by the sign-in takes it (as upstream does).
  const data = { email: body.email, countryCode: ctx.endUser?.countryCode ?? null };
  const code = createCode(ctx, { projectId: project.id, purpose: "otp_sign_in", data, fixedOtp });
  const { otp, nonce } = otpOf(code.code);
  sendEmail(ctx, {
    projectId: project.id,
    to: body.email,
    kind: "magic_link",
    code: code.code,
    otp,
    link: linkWithCode(body.callback_url, code.code),
  });
  return { nonce };
}

/** Checking and signing in ask about the code, not whether OTP is still on (the real handlers only refuse sending). */
export function checkSignInCode(ctx: AuthedContext, code: string): void {
  redeemCode(ctx, ctx.auth.project.id, "otp_sign_in", code, { consume: false });
}

/**
 * Signs in with the link's code or OTP + nonce. An unknown address becomes a new user (verified, used for auth, OTP
 * on) and `is_new_user` is true; a signed-in anonymous user is upgraded instead of a new one being made (§7.8).
 */
export async function otpSignIn(
  ctx: AuthedContext,
  code: string,
): Promise<WithUnsignedToken<SignInResponse> & { is_new_user: boolean }> {
  const { project, user: current } = ctx.auth;
  const record = redeemCode(ctx, project.id, "otp_sign_in", code, { consume: true });
  const email = String(record.data.email);
  const existing = userForEmail(ctx, project, email);
  if (existing) {
    const user = saveUser(ctx, { ...existing, otpAuthEnabled: true, lastActiveAtMillis: ctx.now });
    // A user with a TOTP secret gets MULTI_FACTOR_AUTHENTICATION_REQUIRED instead of tokens (domain/ops/sign-in/mfa.ts).
    return { ...(await signInOrRequireMfa(ctx, user)), is_new_user: false };
  }
  // Codes from before the country was recorded leave it to this request.
  const sentFrom =
    "countryCode" in record.data
      ? { countryCode: typeof record.data.countryCode === "string" ? record.data.countryCode : null }
      : {};
  const ruled = await applySignUpRules(ctx, project.id, {
    email,
    authMethod: "otp",
    current: current?.isAnonymous ? current : null,
    ...sentFrom,
  });
  const fields = {
    ...ruled,
    primaryEmail: email,
    primaryEmailVerified: true,
    primaryEmailAuthEnabled: true,
    otpAuthEnabled: true,
  };
  const user = current?.isAnonymous
    ? { ...current, ...fields, isAnonymous: false }
    : newUserRecord(ctx, project.id, fields);
  saveUser(ctx, user);
  return { ...(await signInResponseFor(ctx, user)), is_new_user: true };
}
