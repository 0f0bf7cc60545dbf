import type { SendEmailRequest } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { OutboxEntryRecord, ProjectRecord, SentEmailRecord, UserRecord } from "../../store/records.ts";
import { nextSequence } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { keepInOutbox } from "./outbox.ts";
import { htmlTemplateSource, newOutboxFields } from "./email-outbox.ts";
import { findTheme, markDraftSent, requireDraft, requireTemplate } from "./email-content.ts";
import { categoryNamed, renderInlineAfterCommit } from "./email-queue.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * POST /emails/send-email (spec §7 Server only; sdk-surface.md §20): to users by id or to all users, with raw HTML, a
 * template and its variables, or a draft, each rendered per recipient with the theme, into the outbox. A category the
 * recipient turned off skips that recipient (spec §3 "Notification category").
 */

const schemaProblem = (message: string) => knownError("SCHEMA_ERROR", { message });

function recipients(ctx: OpContext, projectId: string, body: SendEmailRequest): UserRecord[] {
  // Upstream's all_users is every user row of the project, anonymous ones included: they are listed in the answer, and
  // their entries are skipped in the queue (no primary email), as any user's without one.
  if (body.all_users) {
    return [...ctx.tables.users.values()]
      .filter((u) => u.projectId === projectId)
      .sort((a, b) => a.signedUpAtMillis - b.signedUpAtMillis || (a.id < b.id ? -1 : 1));
  }
  return (body.user_ids ?? []).map((id) => {
    const user = ctx.tables.users.get(id);
    if (!user || user.projectId !== projectId) throw knownError("USER_ID_DOES_NOT_EXIST", { user_id: id });
    return user;
  });
}

/** Stores one email in the outbox (the same table the built-in emails use). */
export function recordSentEmail(
  ctx: OpContext,
  projectId: string,
  to: string | null,
  userId: string | null,
  content: { subject: string; html: string; text: string; from?: string },
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
    ...(content.from !== undefined ? { from: content.from } : {}),
    sentAtMillis: ctx.now,
    seq: nextSequence(ctx.tables, "emails"),
    outbox:
      outbox ??
      newOutboxFields(
        ctx,
        to === null ? { type: "custom-emails", emails: [] } : { type: "custom-emails", emails: [to] },
        { tsxSource: htmlTemplateSource(content.html) },
      ),
  };
  keepInOutbox(ctx, record);
  return record;
}

/**
 * Queues outbox entries for the queue to render (domain/ops/emails/email-queue.ts): subject, content and address are
 * its to fill in. Without a queue delay they are rendered once this transaction has committed, before the request
 * answers. Each entry: the user it is for (null for "custom-emails" recipients) and its outbox fields.
 */
export function queueEmails(
  ctx: OpContext,
  projectId: string,
  entries: readonly { userId: string | null; fields: OutboxEntryRecord }[],
): SentEmailRecord[] {
  const queued = entries.map(({ userId, fields }) =>
    recordSentEmail(ctx, projectId, null, userId, { subject: "", html: "", text: "" }, fields),
  );
  renderInlineAfterCommit(
    ctx,
    queued.map((e) => e.id),
  );
  return queued;
}

/**
 * POST /emails/send-email: one outbox entry per requested user, queued for rendering (domain/ops/emails/email-queue.ts). A user
 * without a primary email or who turned the category off by then gets a "skipped" entry (as upstream, the answer lists
 * every requested user); with `scheduled_at_millis` in the future the entries stay "scheduled" until the clock reaches it.
 */
export function sendCustomEmail(
  ctx: OpContext,
  project: ProjectRecord,
  body: SendEmailRequest,
): { results: { user_id: string }[] } {
  const contents = [body.html, body.template_id, body.draft_id].filter((c) => c !== undefined);
  if (contents.length !== 1) throw schemaProblem("Either template_id, html, or draft_id must be provided");
  // Custom emails go out through the project's own server only (spec §8 REQUIRES_CUSTOM_EMAIL_SERVER).
  if (project.config.email_config?.type !== "standard") throw knownError("REQUIRES_CUSTOM_EMAIL_SERVER");
  if ((body.user_ids === undefined) === (body.all_users === undefined))
    throw schemaProblem("Exactly one of user_ids or all_users must be provided");
  const explicitCategory =
    body.notification_category_name !== undefined ? categoryNamed(body.notification_category_name) : null;

  const template =
    body.template_id !== undefined
      ? requireTemplate(ctx, project.id, body.template_id, () => refusal("templateNotFoundToSend"))
      : null;
  const draft =
    body.draft_id !== undefined
      ? requireDraft(ctx, project.id, body.draft_id, () => refusal("draftNotFoundToSend"))
      : null;
  const users = recipients(ctx, project.id, body);
  const templateSource = draft?.tsxSource ?? template?.tsxSource ?? htmlTemplateSource(body.html ?? "");
  // Without theme_id, a draft's own theme choice applies; a template's does not (upstream sends a template with the
  // project's selected theme unless the request names one; a template's theme_id is for its previews and the emails
  // the service sends with it on its own behalf).
  const themeChoice = body.theme_id !== undefined ? body.theme_id : (draft?.themeId ?? null);
  // The stored theme id: false (no theme) is null, null (the project's) is the project's selected theme.
  const selected = themeChoice === false ? null : (themeChoice ?? project.config.email_theme);
  const themeId = selected === null ? null : (findTheme(ctx, project.id, selected)?.id ?? selected);
  const variables = body.variables ?? {};

  queueEmails(
    ctx,
    project.id,
    users.map((user) => ({
      userId: user.id,
      fields: newOutboxFields(
        ctx,
        { type: "user-primary-email", userId: user.id },
        {
          tsxSource: templateSource,
          themeId,
          variables,
          createdWith: draft ? "draft" : "programmatic-call",
          draftId: draft?.id ?? null,
          templateId: template?.id ?? null,
          scheduledAtMillis: body.scheduled_at_millis ?? ctx.now,
          notificationCategoryId: null,
          awaitingRender: true,
          subjectOverride: body.subject ?? null,
          categoryOverrideId: explicitCategory?.id ?? null,
        },
      ),
    })),
  );
  if (draft) markDraftSent(ctx, draft);
  return { results: users.map((u) => ({ user_id: u.id })) };
}

/** How many emails GET /internal/emails lists, as upstream (the newest outbox rows, whatever their state). */
const SENT_EMAIL_LIST_SIZE = 100;

/**
 * GET /internal/emails: the project's newest outbox entries, newest made first, in every state (queued, scheduled,
 * failed and sent alike): upstream lists its outbox rows by creation. The table keeps emails in the order they were
 * made.
 */
export function listSentEmails(ctx: OpContext, projectId: string): SentEmailRecord[] {
  const made: SentEmailRecord[] = [];
  for (const e of ctx.tables.emails.values()) if (e.projectId === projectId) made.push(e);
  return made.slice(-SENT_EMAIL_LIST_SIZE).reverse();
}

/**
 * An email the service sends on its own behalf with one of the project's templates (payment receipts, failed
 * payments): one outbox entry per user, to their primary email, with the given variables, queued as send-email's are
 * (domain/ops/emails/email-queue.ts: rendered, then skipped if the user has no primary email by then). Needs no custom email server
 * (like the built-in emails).
 */
export function sendServiceTemplateEmail(
  ctx: OpContext,
  project: ProjectRecord,
  templateId: string,
  users: readonly UserRecord[],
  variables: Record<string, unknown>,
): void {
  const template = requireTemplate(ctx, project.id, templateId, () => refusal("defaultTemplateNotFound", templateId));
  const selected = template.themeId === false ? null : (template.themeId ?? project.config.email_theme);
  const themeId = selected === null ? null : (findTheme(ctx, project.id, selected)?.id ?? selected);
  queueEmails(
    ctx,
    project.id,
    users.map((user) => ({
      userId: user.id,
      fields: newOutboxFields(
        ctx,
        { type: "user-primary-email", userId: user.id },
        {
          tsxSource: template.tsxSource,
          themeId,
          variables,
          createdWith: "programmatic-call",
          templateId: template.id,
          scheduledAtMillis: ctx.now,
          notificationCategoryId: null,
          awaitingRender: true,
          subjectOverride: null,
          categoryOverrideId: null,
        },
      ),
    })),
  );
}
