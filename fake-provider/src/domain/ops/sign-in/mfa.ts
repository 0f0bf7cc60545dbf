import type { SignInResponse } from "@authsim/sdk/contract";
import type { WithUnsignedToken } from "../../auth/tokens.ts";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord, UserRecord, VerificationCodeRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { signInResponseFor } from "./sessions.ts";
import { checkTotp } from "./totp.ts";
import { createCode, redeemCode, spendCode } from "./verification-codes.ts";
import { setUserFields } from "../users/user-fields.ts";

/**
 * TOTP multi-factor authentication (protocol.md §7.4; spec §4 "MFA", §8 "MFA"). A user with a TOTP secret who signs
 * in by password, magic link, OAuth or passkey gets MULTI_FACTOR_AUTHENTICATION_REQUIRED with an attempt code instead
 * of tokens; POST /auth/mfa/sign-in with that code and a current TOTP finishes the sign-in.
 */

export const requiresMfa = (user: UserRecord): boolean => user.totpSecretBase64 !== null;

/**
 * The MFA-required error, with a fresh attempt code. The request that raises it fails (its other writes roll back),
 * so the code is written to survive the rollback (ctx.keepOnFailure).
 */
export function mfaRequiredError(ctx: OpContext, user: UserRecord, isNewUser: boolean) {
  let attempt: VerificationCodeRecord | undefined;
  ctx.keepOnFailure((tables) => {
    attempt ??= createCode(
      { ...ctx, tables },
      { projectId: user.projectId, purpose: "mfa_attempt", data: { user_id: user.id, is_new_user: isNewUser } },
    );
    tables.verificationCodes.set(attempt.id, attempt);
  });
  return knownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", { attempt_code: attempt!.code });
}

/** Sign-in tokens for a user, or MULTI_FACTOR_AUTHENTICATION_REQUIRED when the user has a TOTP secret. */
export async function signInOrRequireMfa(
  ctx: OpContext,
  user: UserRecord,
  isNewUser = false,
): Promise<WithUnsignedToken<SignInResponse>> {
  if (requiresMfa(user)) throw mfaRequiredError(ctx, user, isNewUser);
  return signInResponseFor(ctx, user);
}

/**
 * POST /auth/mfa/sign-in {type: "totp", totp, code}. The attempt code is checked first (the verification errors), then
 * the TOTP at the emulator's clock (INVALID_TOTP_CODE, which leaves the attempt usable for another try).
 */
export async function mfaSignIn(
  ctx: OpContext,
  project: ProjectRecord,
  body: { totp: string; code: string },
): Promise<WithUnsignedToken<SignInResponse> & { is_new_user: boolean }> {
  const attempt = redeemCode(ctx, project.id, "mfa_attempt", body.code, { consume: false });
  const user = ctx.tables.users.get(String(attempt.data.user_id));
  if (!user || user.projectId !== project.id) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  // The real handler checks the TOTP before it spends the attempt (its validate step).
  if (user.totpSecretBase64 === null || checkTotp(user.totpSecretBase64, body.totp, ctx.now) === null)
    throw knownError("INVALID_TOTP_CODE");
  spendCode(ctx, attempt);
  setUserFields(ctx, user, { lastActiveAtMillis: ctx.now });
  return { ...(await signInResponseFor(ctx, user)), is_new_user: attempt.data.is_new_user === true };
}
