import type { KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, type Result } from "../errors/result.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { asClient } from "../transport/operation-call.ts";
import { caughtErrors } from "./caught-errors.ts";

/** Password reset, update and set (spec §4 "Password reset", §7 Auth; sdk-surface.md §6, §9b; protocol.md §6.2, §7.3). */

export type VerificationCodeError = KnownErrorOf<"VERIFICATION_ERROR">;
export type PasswordUpdateError = KnownErrorOf<"PASSWORD_CONFIRMATION_MISMATCH" | "PASSWORD_REQUIREMENTS_NOT_MET">;
export type PasswordRequirementsError = KnownErrorOf<"PASSWORD_REQUIREMENTS_NOT_MET">;

/** The link's target: the given callback, or the passwordReset handler made absolute (spec §2). */
function resetCallback(ctx: AppContext, callbackUrl: string | undefined): string {
  const url = callbackUrl ?? ctx.redirector.absolute(ctx.urls.passwordReset);
  if (!url)
    throw new Error(
      "Pass callbackUrl: the passwordReset handler URL is relative and there is no page origin to resolve it against.",
    );
  return url;
}

/**
 * Emails a reset link if a user signs in with this address. The provider answers alike either way (it does not tell
 * who has an account); USER_NOT_FOUND is still caught, as the reference kit does, for providers that do tell.
 */
export function sendForgotPasswordEmail(
  ctx: AppContext,
  email: string,
  options: { callbackUrl?: string } = {},
): Promise<Result<void, KnownErrorOf<"USER_NOT_FOUND">>> {
  return catchKnown(async () => {
    const body = { email, callback_url: resetCallback(ctx, options.callbackUrl) };
    await asClient.json(ctx.transport, "sendResetCode", { body });
  }, caughtErrors.sendResetCode);
}

/** Checks a reset code without using it up (spec §4: "the code can be checked first"). */
export function verifyPasswordResetCode(ctx: AppContext, code: string): Promise<Result<void, VerificationCodeError>> {
  return catchKnown(async () => {
    await asClient.json(ctx.transport, "checkResetCode", { body: { code } });
  }, caughtErrors.checkResetCode);
}

export function resetPassword(
  ctx: AppContext,
  options: { code: string; password: string },
): Promise<Result<void, VerificationCodeError>> {
  return catchKnown(async () => {
    await asClient.send(ctx.transport, "resetPassword", { body: { code: options.code, password: options.password } });
  }, caughtErrors.resetPassword);
}

/** The reference kit returns these errors instead of throwing them (sdk-surface.md §9b). */
async function errorOrVoid<E>(result: Promise<Result<void, E>>): Promise<E | undefined> {
  const settled = await result;
  return settled.status === "error" ? settled.error : undefined;
}

/** A wrong old password is PASSWORD_CONFIRMATION_MISMATCH; the provider ends the user's other sessions. */
export function updatePassword(
  ctx: AppContext,
  session: Session,
  options: { oldPassword: string; newPassword: string },
): Promise<PasswordUpdateError | undefined> {
  const body = { old_password: options.oldPassword, new_password: options.newPassword };
  return errorOrVoid(
    catchKnown(async () => {
      await asClient.send(ctx.transport, "updatePassword", { body, session, allowAnonymousUser: true });
    }, caughtErrors.updatePassword),
  );
}

/** For a user without a password (OTP, OAuth, server-made). */
export function setPassword(
  ctx: AppContext,
  session: Session,
  options: { password: string },
): Promise<PasswordRequirementsError | undefined> {
  return errorOrVoid(
    catchKnown(async () => {
      await asClient.send(ctx.transport, "setPassword", {
        body: { password: options.password },
        session,
        allowAnonymousUser: true,
      });
    }, caughtErrors.setPassword),
  );
}
