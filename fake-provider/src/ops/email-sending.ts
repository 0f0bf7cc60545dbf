import type { SendEmailRequest } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { knownError, KnownErrorException, StatusError } from "../http/known-error.ts";
import { renderEmailSources, type RenderedEmail } from "../email/render/sandbox.ts";
import type { OutboxEntryRecord, OutboxRecipientRecord, OutboxSkippedReason, ProjectRecord, SentEmailRecord, UserRecord } from "../store/records.ts";
import { nextSequence } from "../store/store.ts";
import type { OpContext } from "./context.ts";
import { keepInOutbox } from "./outbox.ts";
import { htmlTemplateSource, isDelivered, newOutboxFields, TRANSACTIONAL, type OutboxRerender } from "./email-outbox.ts";
import { findTheme, markDraftSent, requireDraft, requireTemplate } from "./email-content.ts";
import { recipientProps, themeSourceFor } from "./email-rendering.ts";
import { unsubscribeLinkFor } from "./email-unsubscribe.ts";
import { notificationCategories, notificationPreferencesOf, type NotificationCategory } from "./notifications.ts";

/**
 * POST /emails/send-email (spec §7 Server only; sdk-surface.md §20): to users by id or to all users, with raw HTML, a
 * template and its variables, or a draft, each rendered per recipient with the theme, into the outbox. A category the
 * recipient turned off skips that recipient (spec §3 "Notification category").
 */

const schemaProblem = (message: string) => knownError("SCHEMA_ERROR", { message });

function recipients(ctx: OpContext, projectId: string, body: SendEmailRequest): UserRecord[] {
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
  // The real service's wording and status (send-email checks the name before queueing anything).
  if (!category) throw new StatusError(400, "Notification category not found with given name");
  return category;
}

/** Stores one email in the outbox (the same table the built-in emails use). */
export function recordSentEmail(
  ctx: OpContext,
  projectId: string,
  to: string | null,
  userId: string | null,
  content: { subject: string; html: string; text: string },
  outbox?: OutboxEntryRecord,
): SentEmailRecord {
  const record: SentEmailRecord = {
    id: uuid(ctx.random),
    projectId,
    to: to === null ? [] : [to],
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
    outbox: outbox ?? newOutboxFields(ctx, to === null ? { type: "custom-emails", emails: [] } : { type: "custom-emails", emails: [to] }, { tsxSource: htmlTemplateSource(content.html) }),
  };
  keepInOutbox(ctx, record);
  return record;
}

interface RenderJob {
  project: ProjectRecord;
  templateSource: string;
  themeId: string | null;
  variables: Record<string, unknown>;
  subjectOverride: string | undefined;
  categoryOverride: NotificationCategory | null;
}

type RenderOutcome = { user: UserRecord | null; address: string | null; subject: string; html: string; text: string; category: NotificationCategory };

/** Renders one recipient's copy. The theme is looked up now: one deleted since falls back to the project's (as upstream). */
async function renderFor(ctx: OpContext, job: RenderJob, recipient: OutboxRecipientRecord): Promise<RenderOutcome> {
  const user = recipient.type === "custom-emails" ? null : (ctx.tables.users.get(recipient.userId) ?? null);
  const address = recipient.type === "user-primary-email" ? (user?.primaryEmail ?? null) : (recipient.emails[0] ?? null);
  const themeExists = job.themeId === null || findTheme(ctx, job.project.id, job.themeId) !== undefined;
  const themeSource = job.themeId === null ? themeSourceFor(ctx, job.project, false) : themeSourceFor(ctx, job.project, themeExists ? job.themeId : null);
  const input = { themeSource, templateSource: job.templateSource, variables: job.variables, user: recipientProps(user), project: { displayName: job.project.displayName } };
  // A category the user may turn off puts an unsubscribe link in the email (the theme shows it); the template may name
  // its category, so without an explicit one it is known only after a first rendering.
  const linkFor = (category: NotificationCategory) => (user && category.canDisable ? unsubscribeLinkFor(ctx, job.project.id, user.id, category.id) : undefined);
  const early = job.categoryOverride ? linkFor(job.categoryOverride) : undefined;
  let rendered: RenderedEmail = await renderEmailSources(early ? { ...input, unsubscribeLink: early } : input);
  const category = job.categoryOverride ?? categoryNamed(rendered.notificationCategory ?? "Transactional");
  const late = job.categoryOverride ? undefined : linkFor(category);
  if (late) rendered = await renderEmailSources({ ...input, unsubscribeLink: late });
  const subject = job.subjectOverride ?? rendered.subject ?? `A message from ${job.project.displayName}`;
  return { user, address, subject, html: rendered.html, text: rendered.text, category };
}

/** Why this copy is not delivered, decided when it is created (a user without an address, or who turned the category off). */
function skipReasonFor(ctx: OpContext, outcome: RenderOutcome, recipient: OutboxRecipientRecord): OutboxSkippedReason | null {
  if (recipient.type !== "custom-emails" && !outcome.user) return "USER_ACCOUNT_DELETED";
  if (!outcome.address) return "USER_HAS_NO_PRIMARY_EMAIL";
  if (outcome.user) {
    const preference = notificationPreferencesOf(ctx, outcome.user).find((p) => p.category.id === outcome.category.id);
    if (preference && !preference.enabled) return "USER_UNSUBSCRIBED";
  }
  return null;
}

/**
 * POST /emails/send-email: one outbox entry per requested user, each rendered now. A user without a primary email or
 * who turned the category off gets a "skipped" entry (as upstream, the answer lists every requested user); with
 * `scheduled_at_millis` in the future the entries stay "scheduled" until the clock reaches it.
 */
export async function sendCustomEmail(ctx: OpContext, project: ProjectRecord, body: SendEmailRequest): Promise<{ results: { user_id: string }[] }> {
  const contents = [body.html, body.template_id, body.draft_id].filter((c) => c !== undefined);
  if (contents.length !== 1) throw schemaProblem("Either template_id, html, or draft_id must be provided");
  // Custom emails go out through the project's own server only (spec §8 REQUIRES_CUSTOM_EMAIL_SERVER).
  if (project.config.email_config?.type !== "standard") throw knownError("REQUIRES_CUSTOM_EMAIL_SERVER");
  if ((body.user_ids === undefined) === (body.all_users === undefined)) throw schemaProblem("Exactly one of user_ids or all_users must be provided");
  const explicitCategory = body.notification_category_name !== undefined ? categoryNamed(body.notification_category_name) : null;

  const template = body.template_id !== undefined ? requireTemplate(ctx, project.id, body.template_id, 400, "No template found with given template_id") : null;
  const draft = body.draft_id !== undefined ? requireDraft(ctx, project.id, body.draft_id, 400, "No draft found with given draft_id") : null;
  const users = recipients(ctx, project.id, body);
  const templateSource = draft?.tsxSource ?? template?.tsxSource ?? htmlTemplateSource(body.html ?? "");
  const themeChoice = body.theme_id !== undefined ? body.theme_id : (draft?.themeId ?? template?.themeId ?? null);
  // The stored theme id: false (no theme) is null, null (the project's) is the project's selected theme.
  const selected = themeChoice === false ? null : (themeChoice ?? project.config.email_theme);
  const themeId = selected === null ? null : (findTheme(ctx, project.id, selected)?.id ?? selected);
  const variables = body.variables ?? {};
  const job: RenderJob = { project, templateSource, themeId, variables, subjectOverride: body.subject, categoryOverride: explicitCategory };

  for (const user of users) {
    const recipient: OutboxRecipientRecord = { type: "user-primary-email", userId: user.id };
    const common = {
      tsxSource: templateSource,
      themeId,
      variables,
      createdWith: draft ? ("draft" as const) : ("programmatic-call" as const),
      draftId: draft?.id ?? null,
      templateId: template?.id ?? null,
      scheduledAtMillis: body.scheduled_at_millis ?? ctx.now,
    };
    let outcome: RenderOutcome;
    try {
      outcome = await renderFor(ctx, job, recipient);
    } catch (error) {
      // Upstream renders in its queue, after answering: a source that fails is a "render-error" entry, not a refusal.
      if (!(error instanceof KnownErrorException) || error.code !== "EMAIL_RENDERING_ERROR") throw error;
      const message = typeof error.details?.error === "string" ? error.details.error : error.message;
      recordSentEmail(ctx, project.id, user.primaryEmail, user.id, { subject: "", html: "", text: "" }, newOutboxFields(ctx, recipient, { ...common, renderError: message }));
      continue;
    }
    const skipped = skipReasonFor(ctx, outcome, recipient);
    const fields = newOutboxFields(ctx, recipient, {
      ...common,
      isTransactional: outcome.category.id === TRANSACTIONAL.id,
      notificationCategoryId: outcome.category.id,
      skippedReason: skipped,
      skippedAtMillis: skipped ? ctx.now : null,
    });
    recordSentEmail(ctx, project.id, outcome.address, user.id, outcome, fields);
  }
  if (draft) markDraftSent(ctx, draft);
  return { results: users.map((u) => ({ user_id: u.id })) };
}

/** How an edited outbox entry is rendered again (PATCH /emails/outbox/{id}): its stored source, theme and variables. */
export function outboxRerender(ctx: OpContext, project: ProjectRecord): OutboxRerender {
  return async (email, fields) => {
    try {
      const job: RenderJob = { project, templateSource: fields.tsxSource, themeId: fields.themeId, variables: fields.variables, subjectOverride: undefined, categoryOverride: null };
      const outcome = await renderFor(ctx, job, fields.recipient);
      // An explicit subject given at sending stays (it is what the entry was rendered with, unless the source sets one).
      return { subject: outcome.subject === `A message from ${project.displayName}` ? email.subject : outcome.subject, html: outcome.html, text: outcome.text, to: outcome.address ? [outcome.address] : [], userId: outcome.user?.id ?? null };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  };
}

/** GET /internal/emails: the project's sent emails, newest first (the outbox never fails a delivery: error is null). */
export function listSentEmails(ctx: OpContext, projectId: string): SentEmailRecord[] {
  return [...ctx.tables.emails.values()].filter((e) => e.projectId === projectId && isDelivered(e, ctx.now)).sort((a, b) => b.seq - a.seq);
}

/**
 * An email the service sends on its own behalf with one of the project's templates (payment receipts, failed
 * payments): rendered now for each user, to their primary email, with the given variables. Needs no custom email
 * server (like the built-in emails); a user without a primary email gets a skipped entry.
 */
export async function sendServiceTemplateEmail(ctx: OpContext, project: ProjectRecord, templateId: string, users: readonly UserRecord[], variables: Record<string, unknown>): Promise<void> {
  const template = requireTemplate(ctx, project.id, templateId, 400, `Default email template ${templateId} not found`);
  const selected = template.themeId === false ? null : (template.themeId ?? project.config.email_theme);
  const themeId = selected === null ? null : (findTheme(ctx, project.id, selected)?.id ?? selected);
  const job: RenderJob = { project, templateSource: template.tsxSource, themeId, variables, subjectOverride: undefined, categoryOverride: null };
  for (const user of users) {
    const recipient: OutboxRecipientRecord = { type: "user-primary-email", userId: user.id };
    const outcome = await renderFor(ctx, job, recipient);
    const skipped = skipReasonFor(ctx, outcome, recipient);
    const fields = newOutboxFields(ctx, recipient, {
      tsxSource: template.tsxSource,
      themeId,
      variables,
      createdWith: "programmatic-call",
      templateId: template.id,
      isTransactional: outcome.category.id === TRANSACTIONAL.id,
      notificationCategoryId: outcome.category.id,
      skippedReason: skipped,
      skippedAtMillis: skipped ? ctx.now : null,
    });
    recordSentEmail(ctx, project.id, outcome.address, user.id, outcome, fields);
  }
}
