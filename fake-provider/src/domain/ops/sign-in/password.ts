import { SEND_RESET_CODE_ANSWER } from "@authsim/sdk/contract";
import { checkPasswordRules, hashPassword, verifyPassword } from "../../auth/passwords.ts";
import { linkWithCode } from "../../email/templates.ts";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import type { OpContext } from "../context.ts";
import { sendEmail } from "../emails/outbox.ts";
import { authChannelFor } from "../users/primary-channel.ts";
import { createCode, redeemCode } from "./verification-codes.ts";
import { saveUser, updateUser } from "../users/users.ts";
import { refusal } from "../../errors/refusals.ts";

/** Password reset, update and set (spec §4 "Password reset"; protocol.md §6.2, §7.3). */

function assertPasswordAuth(project: ProjectRecord): void {
  if (!project.config.credential_enabled) throw knownError("PASSWORD_AUTHENTICATION_NOT_ENABLED");
}

/**
 * Emails a reset link when a user signs in with this address, and answers the same whether or not one does: the
 * answer must not tell who has an account (protocol.md §6.2). Every check that could fail runs before the lookup.
 */
export function sendResetCode(
  ctx: OpContext,
  project: ProjectRecord,
  body: { email: string; callback_url: string },
): { success: typeof SEND_RESET_CODE_ANSWER } {
  assertPasswordAuth(project);
  assertTrustedCallback(project, body.callback_url);
  const channel = authChannelFor(ctx.tables, project.id, body.email);
  const user = channel ? ctx.tables.users.get(channel.userId) : undefined;
  if (channel && user) {
    const code = createCode(ctx, { projectId: project.id, purpose: "password_reset", data: { user_id: user.id } });
    sendEmail(ctx, {
      projectId: project.id,
      to: channel.value,
      kind: "password_reset",
      userId: user.id,
      code: code.code,
      link: linkWithCode(body.callback_url, code.code),
    });
  }
  return { success: SEND_RESET_CODE_ANSWER };
}

/**
 * reset/check-code looks without using the code up; reset spends it, then sets the password. As the real handler, the
 * code is checked first: check-code asks nothing else, reset then whether password sign-in is on.
 */
export function checkResetCode(ctx: OpContext, project: ProjectRecord, code: string): void {
  redeemCode(ctx, project.id, "password_reset", code, { consume: false });
}

export async function resetPassword(
  ctx: OpContext,
  project: ProjectRecord,
  body: { code: string; password: string },
): Promise<void> {
  const record = redeemCode(ctx, project.id, "password_reset", body.code, { consume: true });
  assertPasswordAuth(project);
  const user = ctx.tables.users.get(String(record.data.user_id));
  // The user was deleted after the email went out: the code leads nowhere.
  if (!user || user.projectId !== project.id) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  // A refused password leaves the code spent, as the real service spends it before it looks at the password.
  checkPasswordRules(body.password);
  // The real handler sets it through its users update: user.updated is announced and every session of the user ends.
  await updateUser(ctx, user, { password: body.password });
}

/**
 * The signed-in user changes a password they know. A wrong old password is PASSWORD_CONFIRMATION_MISMATCH; the
 * user's other sessions end, the current one stays (protocol.md §6.2). The real handler's order: password sign-in on,
 * the new password's rules, a password to change, the old one right.
 */
export async function updatePassword(
  ctx: OpContext,
  project: ProjectRecord,
  user: UserRecord,
  currentSessionId: string | null,
  body: { old_password: string; new_password: string },
): Promise<void> {
  assertPasswordAuth(project);
  checkPasswordRules(body.new_password);
  if (user.passwordHash === null) throw knownError("USER_DOES_NOT_HAVE_PASSWORD");
  if (!(await verifyPassword(body.old_password, user.passwordHash, ctx.settings.crypto)))
    throw knownError("PASSWORD_CONFIRMATION_MISMATCH");
  saveUser(ctx, {
    ...user,
    passwordHash: await hashPassword(
      body.new_password,
      ctx.random,
      ctx.settings.passwordHashIterations,
      ctx.settings.crypto,
    ),
  });
  for (const session of [...ctx.tables.sessions.values()]) {
    if (session.userId === user.id && session.id !== currentSessionId) ctx.tables.sessions.delete(session.id);
  }
}

/** A user without a password (OTP, OAuth or server-made) sets one; a user who has one must update it instead. */
export async function setPassword(
  ctx: OpContext,
  project: ProjectRecord,
  user: UserRecord,
  password: string,
): Promise<void> {
  assertPasswordAuth(project);
  checkPasswordRules(password);
  if (user.passwordHash !== null) throw refusal("userAlreadyPasswordSet");
  saveUser(ctx, {
    ...user,
    passwordHash: await hashPassword(password, ctx.random, ctx.settings.passwordHashIterations, ctx.settings.crypto),
  });
}
