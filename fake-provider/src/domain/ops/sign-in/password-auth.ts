import type { SignInResponse } from "@authsim/sdk/contract";
import type { WithUnsignedToken } from "../../auth/tokens.ts";
import { dummyHash, checkPasswordRules, hashPassword, verifyPassword } from "../../auth/passwords.ts";
import { knownError } from "../../errors/known-error.ts";
import type { AuthedContext } from "../context.ts";
import { signInResponseFor } from "./sessions.ts";
import { signInOrRequireMfa } from "./mfa.ts";
import { authChannelFor } from "../users/primary-channel.ts";
import { sendSignUpVerification } from "../users/contact-channels.ts";
import { applySignUpRules } from "./sign-up-rules.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import { assertAuthEmailFree, newUserRecord, saveUser } from "../users/users.ts";

/** Email + password and anonymous sign-up (protocol.md §6.2, §7.1, §7.8). */

export async function passwordSignUp(
  ctx: AuthedContext,
  body: { email: string; password: string; verification_callback_url?: string | undefined },
): Promise<WithUnsignedToken<SignInResponse>> {
  const { project, user: current } = ctx.auth;
  if (!project.config.credential_enabled) throw knownError("PASSWORD_AUTHENTICATION_NOT_ENABLED");
  // The real handler's order: the verification link's target is checked before whether sign-up is open.
  if (body.verification_callback_url !== undefined) assertTrustedCallback(project, body.verification_callback_url);
  if (!project.config.sign_up_enabled) throw knownError("SIGN_UP_NOT_ENABLED");
  checkPasswordRules(body.password);
  // The project's sign-up rules (domain/ops/sign-in/sign-up-rules.ts) run before the address is checked, as upstream's do.
  const ruled = await applySignUpRules(ctx, project.id, {
    email: body.email,
    authMethod: "password",
    current: current?.isAnonymous ? current : null,
  });
  assertAuthEmailFree(ctx, project.id, body.email);
  const passwordHash = await hashPassword(
    body.password,
    ctx.random,
    ctx.settings.passwordHashIterations,
    ctx.settings.crypto,
  );
  const fields = {
    ...ruled,
    primaryEmail: body.email,
    primaryEmailVerified: false,
    primaryEmailAuthEnabled: true,
    passwordHash,
  };
  // Signing up while holding an anonymous user's token upgrades that same user (its id and data are kept).
  const user = current?.isAnonymous
    ? { ...current, ...fields, isAnonymous: false }
    : newUserRecord(ctx, project.id, fields);
  saveUser(ctx, user);
  if (body.verification_callback_url !== undefined)
    sendSignUpVerification(ctx, project, user, body.verification_callback_url);
  return signInResponseFor(ctx, user);
}

export async function passwordSignIn(
  ctx: AuthedContext,
  body: { email: string; password: string },
): Promise<WithUnsignedToken<SignInResponse>> {
  const { project } = ctx.auth;
  if (!project.config.credential_enabled) throw knownError("PASSWORD_AUTHENTICATION_NOT_ENABLED");
  // Any email channel used for auth signs in, not only the primary one (upstream looks the contact channel up).
  const channel = authChannelFor(ctx.tables, project.id, body.email);
  const user = channel === undefined ? undefined : ctx.tables.users.get(channel.userId);
  // Verify against a dummy hash when there is no such user, so a miss costs what a hit costs (no enumeration by time).
  const ok = await verifyPassword(
    body.password,
    user?.passwordHash ?? dummyHash(ctx.settings.passwordHashIterations),
    ctx.settings.crypto,
  );
  if (!user || user.passwordHash === null || !ok) throw knownError("EMAIL_PASSWORD_MISMATCH");
  saveUser(ctx, { ...user, lastActiveAtMillis: ctx.now });
  // A user with a TOTP secret gets MULTI_FACTOR_AUTHENTICATION_REQUIRED instead of tokens (domain/ops/sign-in/mfa.ts).
  return signInOrRequireMfa(ctx, user);
}

export async function anonymousSignUp(ctx: AuthedContext): Promise<WithUnsignedToken<SignInResponse>> {
  const { project } = ctx.auth;
  if (!project.config.anonymous_enabled) throw knownError("ANONYMOUS_ACCOUNTS_NOT_ENABLED");
  // Anonymous accounts are made even when sign-up is closed (as upstream); upgrading one is a sign-up, refused then.
  const user = newUserRecord(ctx, project.id, { isAnonymous: true, displayName: null });
  saveUser(ctx, user);
  return signInResponseFor(ctx, user);
}
