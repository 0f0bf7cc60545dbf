import { API_PREFIX } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { OpContext } from "../context.ts";
import { setNotificationPreference } from "../users/notifications.ts";
import { createCode } from "../sign-in/verification-codes.ts";

/**
 * Unsubscribe links (GET /emails/unsubscribe-link?code=…): an email in a category a user may turn off carries a link
 * with a one-time code for that user and category; opening it turns the category off, as the real service does. The
 * link names no project, so the code is found among every project's.
 */

export function unsubscribeLinkFor(ctx: OpContext, projectId: string, userId: string, categoryId: string): string {
  const code = createCode(ctx, {
    projectId,
    purpose: "email_unsubscribe",
    data: { user_id: userId, notification_category_id: categoryId },
  });
  return `${ctx.settings.apiBaseUrl}${API_PREFIX}/emails/unsubscribe-link?code=${code.code}`;
}

export type UnsubscribeOutcome = { status: 400; text: string } | { status: 200; html: string };

export function unsubscribe(ctx: OpContext, given: string | undefined): UnsubscribeOutcome {
  if (given === undefined || given.length !== 45) return { status: 400, text: "Invalid code" };
  const code = given.toLowerCase();
  const found = [...ctx.tables.verificationCodes.values()].find(
    (c) => c.purpose === "email_unsubscribe" && c.code === code,
  );
  if (!found) throw knownError("VERIFICATION_CODE_NOT_FOUND");
  if (found.expiresAtMillis <= ctx.now) throw knownError("VERIFICATION_CODE_EXPIRED");
  if (found.usedAtMillis !== null)
    return { status: 200, html: "<p>You have already unsubscribed from this notification group</p>" };
  ctx.tables.verificationCodes.set(found.id, { ...found, usedAtMillis: ctx.now });
  const user = ctx.tables.users.get(String(found.data.user_id));
  if (user) setNotificationPreference(ctx, user, String(found.data.notification_category_id), false);
  return { status: 200, html: "<p>Successfully unsubscribed from notification group</p>" };
}
