import { emailDeliveryInfo, type SendEmailRequest, type ThemeChoice } from "../contract/areas/emails.ts";
import type { AppContext } from "../client/app-context.ts";
import type { z } from "zod";
import { asServer } from "../transport/operation-call.ts";

/** Sending emails from server code (sdk-surface.md §20 SendEmailOptions; spec §7 POST /emails/send-email). */

export type SendEmailOptions = ({ userIds: string[]; allUsers?: never } | { allUsers: true; userIds?: never }) &
  (
    | { html: string; templateId?: never; draftId?: never }
    | { templateId: string; html?: never; draftId?: never }
    | { draftId: string; html?: never; templateId?: never }
  ) & {
    themeId?: ThemeChoice;
    subject?: string;
    notificationCategoryName?: string;
    scheduledAt?: Date;
    variables?: Record<string, unknown>;
  };

export async function sendEmail(
  ctx: AppContext,
  o: SendEmailOptions,
): Promise<{ userId: string; userEmail: string | undefined }[]> {
  const body: SendEmailRequest = Object.fromEntries(
    Object.entries({
      user_ids: o.userIds,
      all_users: o.allUsers,
      theme_id: o.themeId,
      html: o.html,
      subject: o.subject,
      notification_category_name: o.notificationCategoryName,
      template_id: o.templateId,
      variables: o.variables,
      draft_id: o.draftId,
      scheduled_at_millis: o.scheduledAt?.getTime(),
    }).filter(([, v]) => v !== undefined),
  );
  const json = await asServer.json(ctx.transport, "sendEmail", { body });
  return json.results.map((r) => ({ userId: r.user_id, userEmail: r.user_email }));
}

export type EmailDeliveryInfo = z.infer<typeof emailDeliveryInfo>;

export async function getEmailDeliveryInfo(ctx: AppContext): Promise<EmailDeliveryInfo> {
  return asServer.json(ctx.transport, "emailDeliveryInfo", {});
}
