import type { KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, type Result } from "../errors/result.ts";
import type { Session } from "../session/session.ts";
import type { AppContext } from "./app-context.ts";
import { verificationCallback } from "./contact-channels.ts";
import { asClient } from "../transport/operation-call.ts";
import { caughtErrors } from "./caught-errors.ts";

/** Email verification (spec §4 "Email verification", §5; sdk-surface.md §6, §9b; protocol.md §7.3). */

/**
 * POST /contact-channels/verify: the address the code was sent to becomes verified. The code goes as given, as the
 * published kit sends it: a malformed one (empty, over 256 characters) is the service's SCHEMA_ERROR, thrown as a
 * known error, not a local validation error the caller never sees from the real kit.
 */
export function verifyEmail(ctx: AppContext, code: string): Promise<Result<void, KnownErrorOf<"VERIFICATION_ERROR">>> {
  return catchKnown(async () => {
    await asClient.send(ctx.transport, "verifyContactChannel", { body: { code } });
  }, caughtErrors.verifyContactChannel);
}

/**
 * user.sendVerificationEmail(): a link for the user's primary email. Spec §5: it requires a primary email (checked
 * here, before any request). An already verified email is returned as the EMAIL_ALREADY_VERIFIED error, not thrown.
 */
export async function sendPrimaryVerificationEmail(
  ctx: AppContext,
  session: Session,
  primaryEmail: string | null,
  options: { callbackUrl?: string } = {},
): Promise<KnownErrorOf<"EMAIL_ALREADY_VERIFIED"> | undefined> {
  if (primaryEmail === null)
    throw new Error("sendVerificationEmail needs a primary email: this user has none (spec §5).");
  const body = { email: primaryEmail, callback_url: verificationCallback(ctx, options.callbackUrl) };
  const result = await catchKnown(async () => {
    await asClient.send(ctx.transport, "sendVerificationCodeLegacy", { body, session, allowAnonymousUser: true });
  }, caughtErrors.sendVerificationCodeLegacy);
  return result.status === "error" ? result.error : undefined;
}
