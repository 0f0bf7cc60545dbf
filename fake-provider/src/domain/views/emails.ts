import type { OutboxEmailJson } from "@authsim/sdk/contract";
import type { EmailDraftRecord, EmailTemplateRecord, EmailThemeRecord } from "../store/admin-records.ts";
import type { OutboxEntryRecord, OutboxRecipientRecord, SentEmailRecord } from "../store/records.ts";
import { deliveredAtMillis, outboxFieldsOf, outboxStatusOf } from "../ops/emails/email-outbox.ts";

/** Wire views of email content (protocol.md §5.12) and of sent emails (spec §3 "Sent email"). */

export const themeListItemView = (t: EmailThemeRecord) => ({ id: t.id, display_name: t.displayName });
export const themeView = (t: EmailThemeRecord) => ({ id: t.id, display_name: t.displayName, tsx_source: t.tsxSource });

/** A null theme id (the project's theme) is left out, `false` (no theme) is kept. */
export const templateView = (t: EmailTemplateRecord) => ({
  id: t.id,
  display_name: t.displayName,
  ...(t.themeId !== null ? { theme_id: t.themeId } : {}),
  tsx_source: t.tsxSource,
});

export const draftView = (d: EmailDraftRecord) => ({
  id: d.id,
  display_name: d.displayName,
  ...(d.themeId !== null ? { theme_id: d.themeId } : {}),
  tsx_source: d.tsxSource,
  sent_at_millis: d.sentAtMillis,
});

/**
 * An entry of GET /internal/emails, as upstream reads it off its outbox row: an email to a user's primary address names
 * the user (the address is looked up when it is sent), others their addresses; the subject once rendered; the time it
 * was sent, or made while it is not; the render or send error, prefixed.
 */
export function sentEmailView(e: SentEmailRecord, now: number) {
  const o = outboxFieldsOf(e);
  const to = o.recipient.type === "user-primary-email" ? [`User ID: ${o.recipient.userId}`] : o.recipient.emails;
  const error =
    o.renderError !== null
      ? `Render error: ${o.renderError}`
      : o.sendError
        ? `Send error: ${o.sendError.message}`
        : null;
  const sent = outboxStatusOf(e, now).status === "sent";
  return { id: e.id, to, subject: e.subject, sent_at_millis: sent ? deliveredAtMillis(e) : e.sentAtMillis, error };
}

const recipientView = (r: OutboxRecipientRecord) =>
  r.type === "user-primary-email"
    ? { type: r.type, user_id: r.userId }
    : r.type === "user-custom-emails"
      ? { type: r.type, user_id: r.userId, emails: r.emails }
      : { type: r.type, emails: r.emails };

/**
 * The failed hand-overs to the mail server, as the real outbox lists its send attempt errors: each SMTP attempt
 * (smtp-delivery.ts), or the one failure known without a connection (a host that cannot resolve).
 */
function sendAttemptErrorsOf(o: OutboxEntryRecord) {
  if (o.smtp && o.smtp.attempts.length > 0)
    return o.smtp.attempts.map((a) => ({
      attempt_number: a.attemptNumber,
      timestamp: new Date(a.atMillis).toISOString(),
      external_message: a.message,
      external_details: { errorType: a.errorType },
      internal_message: a.message,
      internal_details: { rawError: a.rawError, errorType: a.errorType },
    }));
  if (!o.sendError) return null;
  return [
    {
      attempt_number: 1,
      timestamp: new Date(o.sendError.atMillis).toISOString(),
      external_message: o.sendError.message,
      external_details: { errorType: o.sendError.errorType },
      internal_message: o.sendError.message,
      internal_details: { errorType: o.sendError.errorType },
    },
  ];
}

/**
 * An outbox entry as the real service's email-outbox read schema has it: base fields, then the ones its status adds
 * (domain/ops/emails/email-outbox.ts derives the status from the record and the clock).
 */
export function outboxEmailView(e: SentEmailRecord, now: number): OutboxEmailJson {
  const o = outboxFieldsOf(e);
  const { status, simple } = outboxStatusOf(e, now);
  const base = {
    id: e.id,
    created_at_millis: e.sentAtMillis,
    updated_at_millis: Math.max(o.updatedAtMillis, status === "sent" ? deliveredAtMillis(e) : 0),
    tsx_source: o.tsxSource,
    theme_id: o.themeId,
    to: recipientView(o.recipient),
    variables: o.variables,
    skip_deliverability_check: o.skipDeliverabilityCheck,
    scheduled_at_millis: o.scheduledAtMillis,
    created_with: o.createdWith,
    email_draft_id: o.draftId,
    email_programmatic_call_template_id: o.templateId,
    send_retries: o.smtp ? o.smtp.attempts.length : o.sendError ? 1 : 0,
    next_send_retry_at_millis: o.smtp?.nextAttemptAtMillis ?? null,
    send_attempt_errors: sendAttemptErrorsOf(o),
    status,
    simple_status: simple,
    is_paused: false,
    has_rendered: false,
    has_delivered: false,
  };
  const rendered = {
    started_rendering_at_millis: o.renderedAtMillis,
    rendered_at_millis: o.renderedAtMillis,
    subject: e.subject,
    html: e.html,
    text: e.text,
    is_transactional: o.isTransactional,
    is_high_priority: o.isHighPriority,
    notification_category_id: o.notificationCategoryId,
    has_rendered: true,
  };
  const hasRendered = !o.awaitingRender && o.renderError === null;
  switch (status) {
    case "paused":
      return { ...base, is_paused: true };
    case "preparing":
      return base;
    case "server-error": {
      const at = o.sendError!.atMillis;
      return {
        ...base,
        ...rendered,
        started_sending_at_millis: at,
        error_at_millis: at,
        server_error: o.sendError!.message,
      };
    }
    case "render-error":
      return {
        ...base,
        started_rendering_at_millis: o.renderedAtMillis,
        rendered_at_millis: o.renderedAtMillis,
        render_error: o.renderError,
      };
    case "scheduled":
    case "queued":
      return { ...base, ...rendered };
    case "sending":
      return { ...base, ...rendered, started_sending_at_millis: o.smtp!.sendingSinceMillis! };
    case "skipped": {
      const at = o.skippedAtMillis ?? o.updatedAtMillis;
      // A cancelled entry never reached sending; the other reasons are found when it is sent (as upstream).
      const sending = o.skippedReason === "MANUALLY_CANCELLED" ? {} : { started_sending_at_millis: at };
      return {
        ...base,
        ...(hasRendered ? rendered : {}),
        ...(hasRendered ? sending : {}),
        skipped_at_millis: at,
        skipped_reason: o.skippedReason,
        skipped_details: {},
      };
    }
    case "sent": {
      const at = deliveredAtMillis(e);
      return {
        ...base,
        ...rendered,
        started_sending_at_millis: at,
        delivered_at_millis: at,
        has_delivered: true,
        can_have_delivery_info: false,
      };
    }
  }
}
