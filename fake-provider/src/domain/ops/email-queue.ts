import { KnownErrorException } from "../errors/known-error.ts";
import { renderEmailSources, type RenderedEmail, type RenderInput } from "../email/render/sandbox.ts";
import type { OutboxRecipientRecord, OutboxSkippedReason, ProjectRecord, SentEmailRecord, UserRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";
import { findTheme, projectLogosOf } from "./email-content.ts";
import { outboxFieldsOf, TRANSACTIONAL, type OutboxRender } from "./email-outbox.ts";
import { recipientProps, themeSourceFor } from "./email-rendering.ts";
import { sendErrorFor } from "./mail-server.ts";
import { unsubscribeLinkFor } from "./email-unsubscribe.ts";
import { notificationCategories, notificationPreferencesOf, type NotificationCategory } from "./notifications.ts";
import { refusal } from "../errors/refusals.ts";

/**
 * The email queue: emails made by send-email (and entries edited through the outbox) wait as "preparing" until the
 * queue renders them; then who receives them is decided, as the real service decides it when it sends: a recipient
 * deleted, without a primary email or unsubscribed since the email was queued makes it "skipped", a mail host that
 * cannot resolve makes it "server-error" (domain/ops/mail-server.ts), and otherwise it is delivered when its schedule comes (domain/ops/email-outbox.ts).
 *
 * When the queue runs (`emailQueueDelayMillis`, a provider option):
 * - 0, the default (library users, in-process tests, the dev server's deterministic mode): inline. The request that
 *   queues or edits an email renders it before answering, so the outcome depends on nothing but the requests and the
 *   injected clock, exactly as before the queue existed; "preparing" is never seen, except while paused.
 * - more than 0 (the dev server): an entry becomes due that long after it was queued (or last edited), by the injected
 *   clock, and due entries are rendered by the queue's step (`prepareQueueStep`, below), which the provider runs before
 *   it answers any request (app.ts), rendering outside the store's lock. The real service's worker runs on a timer, so a client polling it sees an email "preparing" for a moment
 *   and may still delete the recipient, unsubscribe or pause the email before it is rendered; its own tests rely on
 *   that. Driving the step by requests rather than a timer keeps all state changes inside requests (a request
 *   waits for the step before its own work, and nothing moves between two reads of a test that is not polling) while giving a polling client the same
 *   sequence of states, and a frozen clock still freezes the queue.
 */

/** The dev server's pause between queueing and rendering: about one tick of the real service's queue worker. */
export const DEV_SERVER_EMAIL_QUEUE_DELAY_MILLIS = 1_000;

export const emailQueueDelay = (ctx: OpContext): number => ctx.settings.emailQueueDelayMillis ?? 0;

/** How a queued entry was asked to be rendered, besides its stored source, theme and variables. */
interface RenderJob {
  project: ProjectRecord;
  templateSource: string;
  themeId: string | null;
  variables: Record<string, unknown>;
  subjectOverride: string | undefined;
  categoryOverride: NotificationCategory | null;
}

type RenderOutcome = { user: UserRecord | null; address: string | null; subject: string; html: string; text: string; category: NotificationCategory };

export function categoryNamed(name: string): NotificationCategory {
  const category = notificationCategories.find((c) => c.name.toLowerCase() === name.toLowerCase());
  // The real service's wording and status (send-email checks the name before queueing anything).
  if (!category) throw refusal("notificationCategoryFoundName");
  return category;
}

/**
 * What rendering one recipient's copy needs, read in a transaction: the recipient, the theme (one deleted since falls
 * back to the project's, as upstream) and, when the category is known before rendering, the unsubscribe link (which
 * makes a code).
 */
interface PreparedCopy {
  job: RenderJob;
  user: UserRecord | null;
  address: string | null;
  input: RenderInput;
}

function prepareCopy(ctx: OpContext, job: RenderJob, recipient: OutboxRecipientRecord): PreparedCopy {
  const user = recipient.type === "custom-emails" ? null : (ctx.tables.users.get(recipient.userId) ?? null);
  const address = recipient.type === "user-primary-email" ? (user?.primaryEmail ?? null) : (recipient.emails[0] ?? null);
  const themeExists = job.themeId === null || findTheme(ctx, job.project.id, job.themeId) !== undefined;
  const themeSource = job.themeId === null ? themeSourceFor(ctx, job.project, false) : themeSourceFor(ctx, job.project, themeExists ? job.themeId : null);
  const input: RenderInput = {
    themeSource,
    templateSource: job.templateSource,
    variables: job.variables,
    user: recipientProps(user),
    project: { displayName: job.project.displayName },
    projectLogos: projectLogosOf(job.project),
  };
  // A category the user may turn off puts an unsubscribe link in the email (the theme shows it); the template may name
  // its category, so without an explicit one it is known only after a first rendering (finishCopy).
  const early = job.categoryOverride ? unsubscribeLinkOf(ctx, job, user, job.categoryOverride) : undefined;
  return { job, user, address, input: early ? { ...input, unsubscribeLink: early } : input };
}

const unsubscribeLinkOf = (ctx: OpContext, job: RenderJob, user: UserRecord | null, category: NotificationCategory) =>
  user && category.canDisable ? unsubscribeLinkFor(ctx, job.project.id, user.id, category.id) : undefined;

/**
 * The copy once its first rendering is known, in a transaction: the category the template named (or the explicit
 * one) and, if that category can be turned off and was not known before, a second rendering with its unsubscribe link.
 */
async function finishCopy(ctx: OpContext, prepared: PreparedCopy, first: RenderedEmail): Promise<RenderOutcome> {
  const { job, user, address, input } = prepared;
  const category = job.categoryOverride ?? categoryNamed(first.notificationCategory ?? "Transactional");
  const late = job.categoryOverride ? undefined : unsubscribeLinkOf(ctx, job, user, category);
  const rendered = late ? await renderEmailSources({ ...input, unsubscribeLink: late }) : first;
  // Without a subject given or rendered, the real queue stores an empty one.
  const subject = job.subjectOverride ?? rendered.subject ?? "";
  return { user, address, subject, html: rendered.html, text: rendered.text, category };
}

/** Why this copy is not delivered, decided when it leaves the queue (a user gone, without an address, or who turned the category off). */
function skipReasonFor(ctx: OpContext, outcome: RenderOutcome, recipient: OutboxRecipientRecord): OutboxSkippedReason | null {
  if (recipient.type !== "custom-emails" && !outcome.user) return "USER_ACCOUNT_DELETED";
  if (!outcome.address) return "USER_HAS_NO_PRIMARY_EMAIL";
  if (outcome.user) {
    const preference = notificationPreferencesOf(ctx, outcome.user).find((p) => p.category.id === outcome.category.id);
    if (preference && !preference.enabled) return "USER_UNSUBSCRIBED";
  }
  return null;
}

/** A queued entry about to be rendered: the entry as read, and its copy's inputs (null when its project is gone). */
export interface PreparedEntry {
  email: SentEmailRecord;
  copy: PreparedCopy | null;
}

function prepareEntry(ctx: OpContext, email: SentEmailRecord): PreparedEntry {
  const fields = outboxFieldsOf(email);
  const project = ctx.tables.projects.get(email.projectId);
  if (!project) return { email, copy: null };
  const categoryOverride = fields.categoryOverrideId ? (notificationCategories.find((c) => c.id === fields.categoryOverrideId) ?? null) : null;
  const job: RenderJob = {
    project,
    templateSource: fields.tsxSource,
    themeId: fields.themeId,
    variables: fields.variables,
    subjectOverride: fields.subjectOverride ?? undefined,
    categoryOverride,
  };
  return { email, copy: prepareCopy(ctx, job, fields.recipient) };
}

/** The first rendering of an entry's copy, or why it failed (a source that fails is the entry's fate, not a refusal). */
export type FirstRendering = { ok: true; rendered: RenderedEmail } | { ok: false; message: string };

export async function renderEntry(entry: PreparedEntry): Promise<FirstRendering | null> {
  if (!entry.copy) return null;
  try {
    return { ok: true, rendered: await renderEmailSources(entry.copy.input) };
  } catch (error) {
    return { ok: false, message: failureMessage(error) };
  }
}

const failureMessage = (error: unknown) =>
  error instanceof KnownErrorException && typeof error.details?.error === "string" ? error.details.error : error instanceof Error ? error.message : String(error);

/** Decides a rendered entry's fate and stores it; answers the entry as stored. */
async function settleEntry(ctx: OpContext, entry: PreparedEntry, first: FirstRendering | null): Promise<SentEmailRecord> {
  const { email, copy } = entry;
  if (!copy || !first) return email;
  const fields = outboxFieldsOf(email);
  const done = { ...fields, awaitingRender: false, renderedAtMillis: ctx.now, updatedAtMillis: ctx.now };
  let outcome: RenderOutcome;
  try {
    if (!first.ok) throw new Error(first.message);
    outcome = await finishCopy(ctx, copy, first.rendered);
  } catch (error) {
    // A source that fails is a "render-error" entry (the real queue renders after send-email answered), never a refusal.
    const failed: SentEmailRecord = { ...email, outbox: { ...done, renderError: first.ok ? failureMessage(error) : first.message } };
    ctx.tables.emails.set(failed.id, failed);
    return failed;
  }
  const skipped = skipReasonFor(ctx, outcome, fields.recipient);
  const rendered: SentEmailRecord = {
    ...email,
    subject: outcome.subject,
    html: outcome.html,
    text: outcome.text,
    to: outcome.address ? [outcome.address] : [],
    userId: outcome.user?.id ?? (fields.recipient.type === "custom-emails" ? null : email.userId),
    outbox: {
      ...done,
      renderError: null,
      isTransactional: outcome.category.id === TRANSACTIONAL.id,
      notificationCategoryId: outcome.category.id,
      skippedReason: skipped,
      skippedAtMillis: skipped ? ctx.now : null,
      sendError: skipped ? null : sendErrorFor(ctx.tables.projects.get(email.projectId), ctx.now),
    },
  };
  ctx.tables.emails.set(rendered.id, rendered);
  return rendered;
}

/** Renders one queued entry and decides its fate, all in the caller's transaction; answers the entry as stored. */
export async function renderQueuedEmail(ctx: OpContext, email: SentEmailRecord): Promise<SentEmailRecord> {
  const entry = prepareEntry(ctx, email);
  return settleEntry(ctx, entry, await renderEntry(entry));
}

/** The queue's render step for edited entries (PATCH /emails/outbox/{id}). */
export const queueRender: (ctx: OpContext) => OutboxRender = (ctx) => (email) => renderQueuedEmail(ctx, email);

/** Whether the queue would render this entry at `now`: waiting, not paused or cancelled, and its delay passed. */
export function isDue(email: SentEmailRecord, now: number, delayMillis: number): boolean {
  const o = email.outbox;
  return o !== undefined && o.awaitingRender === true && !o.isPaused && o.skippedReason === null && now >= o.updatedAtMillis + delayMillis;
}

/** Whether any entry is due (a read without the store's lock, so requests pay for a transaction only when there is work). */
export function anyDue(emails: Iterable<SentEmailRecord>, now: number, delayMillis: number): boolean {
  for (const email of emails) if (isDue(email, now, delayMillis)) return true;
  return false;
}

const dueEntries = (ctx: OpContext) =>
  [...ctx.tables.emails.indexed("awaitingRender")].filter((e) => isDue(e, ctx.now, emailQueueDelay(ctx))).sort((a, b) => a.seq - b.seq);

/**
 * One step of the queue, in three parts so that the store's lock is not held while emails render (a rendering is
 * 45–100 ms, and every write would wait for it): `prepareQueueStep` reads the due entries, oldest first, in one transaction,
 * `renderEntry` renders each outside any, and `settleQueueStep` stores the outcomes in another. An entry changed in
 * between (edited, paused, cancelled, deleted: any write replaces its record) is left for the next step, which renders
 * it afresh from what it is then.
 */
export function prepareQueueStep(ctx: OpContext): PreparedEntry[] {
  return dueEntries(ctx).map((email) => prepareEntry(ctx, email));
}

export async function settleQueueStep(ctx: OpContext, entries: readonly PreparedEntry[], renderings: readonly (FirstRendering | null)[]): Promise<number> {
  let settled = 0;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!;
    const current = ctx.tables.emails.get(entry.email.id);
    if (current !== entry.email || !isDue(current, ctx.now, emailQueueDelay(ctx))) continue;
    await settleEntry(ctx, entry, renderings[i] ?? null);
    settled++;
  }
  return settled;
}
