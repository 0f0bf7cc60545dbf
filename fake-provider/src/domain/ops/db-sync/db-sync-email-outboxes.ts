import type { Tables } from "../../store/store.ts";
import { deliveredAtMillis, outboxFieldsOf, outboxStatusOf } from "../emails/email-outbox.ts";
import type { CellValue, ColumnSpec, DbSyncMapping } from "./db-sync-columns.ts";

/**
 * The `email_outboxes` mapping: a project's outbox entries with the real service's columns. Statuses are its enum
 * names (upper case, underscores); the emulator keeps no delivery tracking (opens, clicks, bounces), so those columns
 * stay null, and an entry is sent in one attempt when its schedule and rendering allow (email-outbox.ts).
 */

const time = (name: string, required = false): ColumnSpec => ({
  name,
  type: "timestamp",
  ...(required ? { required } : {}),
});
const text = (name: string, required = false): ColumnSpec => ({
  name,
  type: "text",
  ...(required ? { required } : {}),
});
const flag = (name: string, byDefault = false): ColumnSpec => ({
  name,
  type: "boolean",
  required: true,
  default: String(byDefault),
});

const enumName = (value: string) => value.toUpperCase().replaceAll("-", "_");

export const emailOutboxMapping: DbSyncMapping = {
  id: "email_outboxes",
  table: "email_outboxes",
  key: ["id"],
  columns: [
    { name: "id", type: "uuid", required: true },
    text("status", true),
    text("simple_status", true),
    text("created_with", true),
    text("email_draft_id"),
    text("email_programmatic_call_template_id"),
    text("theme_id"),
    flag("is_high_priority"),
    { name: "rendered_is_transactional", type: "boolean" },
    text("rendered_subject"),
    text("rendered_notification_category_id"),
    time("started_rendering_at"),
    time("finished_rendering_at"),
    text("render_error"),
    time("scheduled_at", true),
    time("created_at", true),
    time("started_sending_at"),
    time("finished_sending_at"),
    text("server_error"),
    time("sent_at"),
    time("delivered_at"),
    time("opened_at"),
    time("clicked_at"),
    time("unsubscribed_at"),
    time("marked_as_spam_at"),
    time("bounced_at"),
    time("delivery_delayed_at"),
    { name: "can_have_delivery_info", type: "boolean" },
    text("skipped_reason"),
    { name: "skipped_details", type: "jsonb" },
    { name: "send_retries", type: "integer", required: true, default: "0" },
    flag("is_paused"),
  ],
  rows(tables: Tables, projectId: string, now: number) {
    const out = new Map<string, (CellValue | undefined)[]>();
    for (const email of tables.emails.values()) {
      if (email.projectId !== projectId) continue;
      const o = outboxFieldsOf(email);
      const { status, simple } = outboxStatusOf(email, now);
      const rendered = !o.awaitingRender && o.renderError === null;
      const attempted = status === "sent" || status === "server-error";
      const sentAt = status === "sent" ? deliveredAtMillis(email) : null;
      out.set(email.id, [
        email.id,
        enumName(status),
        enumName(simple),
        enumName(o.createdWith),
        o.draftId,
        o.templateId,
        o.themeId,
        o.isHighPriority,
        rendered ? o.isTransactional : null,
        rendered ? email.subject : null,
        rendered ? o.notificationCategoryId : null,
        o.awaitingRender ? null : o.renderedAtMillis,
        o.awaitingRender ? null : o.renderedAtMillis,
        o.renderError,
        o.scheduledAtMillis,
        email.sentAtMillis,
        attempted ? (sentAt ?? o.sendError?.atMillis ?? null) : null,
        attempted ? (sentAt ?? o.sendError?.atMillis ?? null) : null,
        o.sendError ? JSON.stringify(o.sendError) : null,
        sentAt,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        false,
        o.skippedReason,
        null,
        0,
        o.isPaused,
      ]);
    }
    return out;
  },
};
