import type { OutboxEmailUpdate } from "@authsim/sdk/contract";
import { knownError } from "../../errors/known-error.ts";
import type { OutboxEntryRecord, OutboxRecipientRecord, SentEmailRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { notificationCategories } from "../users/notifications.ts";
import { readAfterWork, type Step } from "../outside-lock.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The email outbox as the real service shows it (GET/PATCH /emails/outbox…; docs/emails.md "Outbox"). Every email is a
 * row of the `emails` table; its status is not stored but derived from plain state and the clock, so nothing runs in
 * the background: an entry waiting for the email queue to render it is "preparing" (domain/ops/emails/email-queue.ts says when the
 * queue runs); a rendered one scheduled for later is "scheduled" until the emulated clock reaches its time, then
 * "sent"; a paused one stays "paused"; a cancelled or undeliverable one is "skipped"; one the mail server refused for
 * good is "server-error". The real service's worker also passes through rendering/queued/sending: here rendering takes
 * no time, and so does delivery (the instant the clock passes `scheduled_at_millis`) except to a project's own server
 * reached over SMTP (smtp-delivery.ts), which is "queued", "sending" and, waiting for a retry, "scheduled" again.
 */

export type OutboxStatus =
  "paused" | "preparing" | "render-error" | "server-error" | "scheduled" | "queued" | "sending" | "skipped" | "sent";
export type OutboxSimpleStatus = "in-progress" | "ok" | "error";

/** What an entry made before the outbox fields existed (older snapshots) reads as: a sent programmatic email. */
export function outboxFieldsOf(email: SentEmailRecord): OutboxEntryRecord {
  return (
    email.outbox ?? {
      tsxSource: htmlTemplateSource(email.html),
      themeId: null,
      recipient:
        email.userId !== null
          ? { type: "user-custom-emails", userId: email.userId, emails: email.to }
          : { type: "custom-emails", emails: email.to },
      variables: {},
      createdWith: "programmatic-call",
      draftId: null,
      templateId: null,
      scheduledAtMillis: email.sentAtMillis,
      isTransactional: true,
      isHighPriority: false,
      notificationCategoryId: null,
      skipDeliverabilityCheck: false,
      isPaused: false,
      skippedReason: null,
      skippedAtMillis: null,
      renderedAtMillis: email.sentAtMillis,
      renderError: null,
      updatedAtMillis: email.sentAtMillis,
    }
  );
}

/** The TSX the real service stores for an email sent as raw HTML (its tsx_source is this component). */
/** Text made safe to put inside the HTML of an email built here. */
export const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function htmlTemplateSource(html: string): string {
  return `export const variablesSchema = v => v;\nexport function EmailTemplate() {\n  return <>\n    <div dangerouslySetInnerHTML={{ __html: ${JSON.stringify(html)}}} />\n  </>\n};`;
}

export function outboxStatusOf(
  email: SentEmailRecord,
  now: number,
): { status: OutboxStatus; simple: OutboxSimpleStatus } {
  const o = outboxFieldsOf(email);
  if (o.skippedReason !== null) return { status: "skipped", simple: "ok" };
  if (o.isPaused) return { status: "paused", simple: "in-progress" };
  if (o.awaitingRender) return { status: "preparing", simple: "in-progress" };
  if (o.renderError !== null) return { status: "render-error", simple: "error" };
  if (o.sendError) return { status: "server-error", simple: "error" };
  if (now < o.scheduledAtMillis) return { status: "scheduled", simple: "in-progress" };
  // Handed to the project's own server over SMTP (smtp-delivery.ts): sent once it accepted; "scheduled" while a retry
  // waits for its backoff (the real queue unclaims it), "sending" during an attempt, "queued" until the worker takes it.
  const smtp = o.smtp;
  if (smtp && smtp.deliveredAtMillis === null) {
    if (smtp.sendingSinceMillis !== null) return { status: "sending", simple: "in-progress" };
    if (smtp.nextAttemptAtMillis !== null && now < smtp.nextAttemptAtMillis)
      return { status: "scheduled", simple: "in-progress" };
    return { status: "queued", simple: "in-progress" };
  }
  return { status: "sent", simple: "ok" };
}

/** Whether the email reached its recipient by `now`: what a mailbox (the emulator's outbox control) shows. */
export function isDelivered(email: SentEmailRecord, now: number): boolean {
  return outboxStatusOf(email, now).status === "sent";
}

/** When an entry was (or will be) handed to the mail server: not before it was rendered nor before its schedule. */
export function deliveredAtMillis(email: SentEmailRecord): number {
  const o = outboxFieldsOf(email);
  return o.smtp?.deliveredAtMillis ?? Math.max(o.scheduledAtMillis, o.renderedAtMillis);
}

export const TRANSACTIONAL = notificationCategories.find((c) => c.name === "Transactional")!;

/** The outbox fields of an email sent now, right away, as a programmatic call (overridable per field). */
export function newOutboxFields(
  ctx: OpContext,
  recipient: OutboxRecipientRecord,
  overrides: Partial<OutboxEntryRecord> & { tsxSource: string },
): OutboxEntryRecord {
  return {
    themeId: null,
    recipient,
    variables: {},
    createdWith: "programmatic-call",
    draftId: null,
    templateId: null,
    scheduledAtMillis: ctx.now,
    isTransactional: true,
    isHighPriority: false,
    notificationCategoryId: TRANSACTIONAL.id,
    skipDeliverabilityCheck: false,
    isPaused: false,
    skippedReason: null,
    skippedAtMillis: null,
    renderedAtMillis: ctx.now,
    renderError: null,
    updatedAtMillis: ctx.now,
    ...overrides,
  };
}

const MAX_LIMIT = 100;

function requireOutboxEmail(ctx: OpContext, projectId: string, id: string): SentEmailRecord {
  const email = ctx.tables.emails.get(id);
  if (!email || email.projectId !== projectId) throw refusal("outboxEmailNotFound");
  return email;
}

/** GET /emails/outbox: newest first (ties by id), filtered by status / simple_status, `limit` ≤ 100, cursor = an id. */
export function listOutbox(
  ctx: OpContext,
  projectId: string,
  query: {
    status?: string | undefined;
    simple_status?: string | undefined;
    limit?: string | undefined;
    cursor?: string | undefined;
  },
): { items: SentEmailRecord[]; nextCursor: string | null } {
  const limit = query.limit !== undefined ? Number.parseInt(query.limit, 10) : MAX_LIMIT;
  if (Number.isNaN(limit) || limit < 1) throw refusal("invalidLimitParameter");
  if (limit > MAX_LIMIT) throw refusal("limitCannotExceed", MAX_LIMIT);
  // The real service compares the filter with its stored enum (upper case, underscores); so does this, case-folded.
  const norm = (s: string) => s.toLowerCase().replace(/_/g, "-");
  const all = [...ctx.tables.emails.values()]
    .filter((e) => e.projectId === projectId)
    .filter((e) => {
      const { status, simple } = outboxStatusOf(e, ctx.now);
      return (
        (query.status === undefined || norm(query.status) === status) &&
        (query.simple_status === undefined || norm(query.simple_status) === simple)
      );
    })
    .sort((a, b) => b.sentAtMillis - a.sentAtMillis || b.seq - a.seq);
  let start = 0;
  if (query.cursor !== undefined) {
    start = all.findIndex((e) => e.id === query.cursor);
    if (start < 0) return { items: [], nextCursor: null };
  }
  const page = all.slice(start, start + limit + 1);
  const hasMore = page.length > limit;
  return { items: page.slice(0, limit), nextCursor: hasMore ? page[limit]!.id : null };
}

export function getOutboxEmail(ctx: OpContext, projectId: string, id: string): SentEmailRecord {
  return requireOutboxEmail(ctx, projectId, id);
}

/** Has an entry rendered after the request's commit when the queue runs inline (domain/ops/emails/email-queue.ts renderInlineAfterCommit). */
export type OutboxRender = (ctx: OpContext, ids: readonly string[]) => void;

/**
 * PATCH /emails/outbox/{id}: edit, pause, resume, reschedule or cancel. Only entries that have not been delivered nor
 * skipped can change (EMAIL_NOT_EDITABLE names the status as the real service stores it: "SENT", "SKIPPED"); a change of
 * content or recipient sends the entry back to the queue to be rendered again ("preparing"), and so does resuming one
 * paused before it was rendered. When the queue runs inline (no delay, domain/ops/emails/email-queue.ts) it is rendered before the
 * request answers (outside the store's lock), and the answer is the entry as it is then.
 */
export function updateOutboxEmail(
  ctx: OpContext,
  projectId: string,
  id: string,
  body: OutboxEmailUpdate,
  render: OutboxRender,
): Step<SentEmailRecord> {
  const email = requireOutboxEmail(ctx, projectId, id);
  const { status } = outboxStatusOf(email, ctx.now);
  if (status === "sent" || status === "skipped")
    throw knownError("EMAIL_NOT_EDITABLE", { email_id: email.id, status: status.toUpperCase().replace(/-/g, "_") });
  let fields: OutboxEntryRecord = { ...outboxFieldsOf(email), updatedAtMillis: ctx.now };
  if (body.cancel) {
    fields = { ...fields, isPaused: false, skippedReason: "MANUALLY_CANCELLED", skippedAtMillis: ctx.now };
  } else {
    if (body.tsx_source !== undefined) fields = { ...fields, tsxSource: body.tsx_source };
    if (body.theme_id !== undefined) fields = { ...fields, themeId: body.theme_id };
    if (body.to !== undefined) fields = { ...fields, recipient: recipientFromWire(body.to) };
    if (body.variables !== undefined) fields = { ...fields, variables: body.variables };
    if (body.skip_deliverability_check !== undefined)
      fields = { ...fields, skipDeliverabilityCheck: body.skip_deliverability_check };
    if (body.scheduled_at_millis !== undefined) fields = { ...fields, scheduledAtMillis: body.scheduled_at_millis };
    if (body.is_paused !== undefined) fields = { ...fields, isPaused: body.is_paused };
    const contentChanged =
      body.tsx_source !== undefined ||
      body.theme_id !== undefined ||
      body.to !== undefined ||
      body.variables !== undefined;
    if (contentChanged) fields = { ...fields, awaitingRender: true, renderError: null, sendError: null };
  }
  const updated: SentEmailRecord = { ...email, outbox: fields };
  ctx.tables.emails.set(updated.id, updated);
  if (
    fields.awaitingRender &&
    !fields.isPaused &&
    fields.skippedReason === null &&
    (ctx.settings.emailQueueDelayMillis ?? 0) === 0
  ) {
    render(ctx, [updated.id]);
    return readAfterWork((after) => requireOutboxEmail(after, projectId, id));
  }
  return updated;
}

export function recipientFromWire(to: NonNullable<OutboxEmailUpdate["to"]>): OutboxRecipientRecord {
  switch (to.type) {
    case "user-primary-email":
      return { type: to.type, userId: to.user_id };
    case "user-custom-emails":
      return { type: to.type, userId: to.user_id, emails: to.emails };
    case "custom-emails":
      return { type: to.type, emails: to.emails };
  }
}
