import type { SendEmailRequest } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { knownError, StatusError } from "../http/known-error.ts";
import { renderEmailSources, type RenderedEmail } from "../email/render/sandbox.ts";
import type { ProjectRecord, SentEmailRecord, UserRecord } from "../store/records.ts";
import { nextSequence } from "../store/store.ts";
import type { OpContext } from "./context.ts";
import { keepInOutbox } from "./outbox.ts";
import { markDraftSent, requireDraft, requireTemplate } from "./email-content.ts";
import { recipientProps, themeSourceFor } from "./email-rendering.ts";
import { notificationCategories, notificationPreferencesOf, type NotificationCategory } from "./notifications.ts";

/**
 * POST /emails/send-email (spec §7 Server only; sdk-surface.md §20): to users by id or to all users, with raw HTML, a
 * template and its variables, or a draft, each rendered per recipient with the theme, into the outbox. A category the
 * recipient turned off skips that recipient (spec §3 "Notification category").
 */

const schemaProblem = (message: string) => knownError("SCHEMA_ERROR", { message });

/** Raw HTML goes through the theme like a template does, as the content of this one-line template. */
const HTML_CONTENT_SOURCE = `export function EmailTemplate({ variables }) { return <div dangerouslySetInnerHTML={{ __html: variables.html }} />; }`;

function recipients(ctx: OpContext, projectId: string, body: SendEmailRequest): UserRecord[] {
  if ((body.user_ids === undefined) === (body.all_users === undefined)) throw schemaProblem("Exactly one of user_ids and all_users must be given.");
  if (body.all_users) {
    return [...ctx.tables.users.values()].filter((u) => u.projectId === projectId && !u.isAnonymous).sort((a, b) => a.signedUpAtMillis - b.signedUpAtMillis || (a.id < b.id ? -1 : 1));
  }
  return (body.user_ids ?? []).map((id) => {
    const user = ctx.tables.users.get(id);
    if (!user || user.projectId !== projectId) throw knownError("USER_ID_DOES_NOT_EXIST", { user_id: id });
    return user;
  });
}

function categoryNamed(name: string): NotificationCategory {
  const category = notificationCategories.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (!category) throw new StatusError(404, `Notification category "${name}" not found. The categories are ${notificationCategories.map((c) => c.name).join(", ")}.`);
  return category;
}

/** Stores one sent email in the outbox (the same table the built-in emails use). */
export function recordSentEmail(ctx: OpContext, projectId: string, to: string, userId: string | null, content: { subject: string; html: string; text: string }): SentEmailRecord {
  const record: SentEmailRecord = {
    id: uuid(ctx.random),
    projectId,
    to: [to],
    subject: content.subject,
    kind: "custom",
    html: content.html,
    text: content.text,
    code: null,
    otp: null,
    link: null,
    userId,
    sentAtMillis: ctx.now,
    seq: nextSequence(ctx.tables, "emails"),
  };
  keepInOutbox(ctx, record);
  return record;
}

export async function sendCustomEmail(ctx: OpContext, project: ProjectRecord, body: SendEmailRequest): Promise<{ results: { user_id: string; user_email: string }[] }> {
  const contents = [body.html, body.template_id, body.draft_id].filter((c) => c !== undefined);
  if (contents.length !== 1) throw schemaProblem("Exactly one of html, template_id and draft_id must be given.");
  if (body.html !== undefined && body.subject === undefined) throw schemaProblem("subject is required when sending html.");
  // Custom emails go out through the project's own server only (spec §8 REQUIRES_CUSTOM_EMAIL_SERVER).
  if (project.config.email_config?.type !== "standard") throw knownError("REQUIRES_CUSTOM_EMAIL_SERVER");
  const users = recipients(ctx, project.id, body);
  const explicitCategory = body.notification_category_name !== undefined ? categoryNamed(body.notification_category_name) : null;

  const draft = body.draft_id !== undefined ? requireDraft(ctx, project.id, body.draft_id) : null;
  const template = body.template_id !== undefined ? requireTemplate(ctx, project.id, body.template_id) : null;
  const templateSource = draft?.tsxSource ?? template?.tsxSource ?? HTML_CONTENT_SOURCE;
  const themeChoice = body.theme_id !== undefined ? body.theme_id : (draft?.themeId ?? template?.themeId ?? null);
  const themeSource = themeSourceFor(ctx, project, themeChoice);
  const variables = body.html !== undefined ? { html: body.html } : (body.variables ?? {});

  const results: { user_id: string; user_email: string }[] = [];
  for (const user of users) {
    if (!user.primaryEmail) continue;
    const rendered: RenderedEmail = await renderEmailSources({ themeSource, templateSource, variables, user: recipientProps(user), project: { displayName: project.displayName } });
    const category = explicitCategory ?? categoryNamed(rendered.notificationCategory ?? "Transactional");
    const preference = notificationPreferencesOf(ctx, user).find((p) => p.category.id === category.id);
    if (preference && !preference.enabled) continue;
    const subject = body.subject ?? rendered.subject ?? `A message from ${project.displayName}`;
    recordSentEmail(ctx, project.id, user.primaryEmail, user.id, { subject, html: rendered.html, text: rendered.text });
    results.push({ user_id: user.id, user_email: user.primaryEmail });
  }
  if (draft) markDraftSent(ctx, draft);
  return { results };
}

/** GET /internal/emails: the project's sent emails, newest first (the outbox never fails a delivery: error is null). */
export function listSentEmails(ctx: OpContext, projectId: string): SentEmailRecord[] {
  return [...ctx.tables.emails.values()].filter((e) => e.projectId === projectId).sort((a, b) => b.seq - a.seq);
}

const HOUR = 3_600_000;

/** GET /emails/delivery-info: what the outbox holds in each window; nothing bounces or is marked as spam here. */
export function deliveryInfo(ctx: OpContext, projectId: string) {
  const sent = listSentEmails(ctx, projectId);
  const window = (millis: number) => ({ sent: sent.filter((e) => e.sentAtMillis > ctx.now - millis).length, bounced: 0, marked_as_spam: 0 });
  return {
    stats: { hour: window(HOUR), day: window(24 * HOUR), week: window(7 * 24 * HOUR), month: window(30 * 24 * HOUR) },
    capacity: { rate_per_second: 10, boost_multiplier: 1, penalty_factor: 1, is_boost_active: false, boost_expires_at: null },
  };
}
