import { KnownErrorException } from "../../errors/known-error.ts";
import { renderEmailSources, type RenderedEmail, type RenderInput } from "../../email/render/sandbox.ts";
import type {
  OutboxRecipientRecord,
  OutboxSkippedReason,
  ProjectRecord,
  SentEmailRecord,
  UserRecord,
} from "../../store/records.ts";
import type { InTransaction, OpContext } from "../context.ts";
import { findTheme, projectLogosOf } from "./email-content.ts";
import { outboxFieldsOf, TRANSACTIONAL } from "./email-outbox.ts";
import { recipientProps, renderTimeLimit, themeSourceFor } from "./email-rendering.ts";
import { deliveryFieldsFor } from "./mail-server.ts";
import { unsubscribeLinkFor } from "./email-unsubscribe.ts";
import {
  notificationCategories,
  notificationPreferencesOf,
  type NotificationCategory,
} from "../users/notifications.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The email queue: emails made by send-email (and entries edited through the outbox) wait as "preparing" until the
 * queue renders them; then who receives them is decided, as the real service decides it when it sends: a recipient
 * deleted, without a primary email or unsubscribed since the email was queued makes it "skipped", a mail host that
 * cannot resolve makes it "server-error" (domain/ops/emails/mail-server.ts), and otherwise it is delivered when its schedule comes (domain/ops/emails/email-outbox.ts).
 *
 * When the queue runs (`emailQueueDelayMillis`, a provider option):
 * - 0, the default (library users, in-process tests, the dev server's deterministic mode): inline. The request that
 *   queues or edits an email renders it before answering (once its transaction has committed, outside the store's lock:
 *   `renderQueued`, below), so for a client that waits for its answers the outcome depends on nothing but the requests
 *   and the injected clock, exactly as before the queue existed; "preparing" is never seen, except while paused.
 * - more than 0 (the dev server): an entry becomes due that long after it was queued (or last edited), by the injected
 *   clock, and due entries are rendered by the queue's step (`dueEmailIds` and `renderQueued`, below), which the
 *   provider's timed work runs (emulator/timed-work/email-queue-worker.ts) after requests, on clock moves and when the
 *   grace has passed, rendering outside the store's lock. A request waits for a running step only briefly
 *   (QUEUE_STEP_WAIT_MILLIS, emulator/timed-work/runner.ts): an email's code never holds other requests up. The real
 *   service's worker runs on a timer, so a client polling it sees an email "preparing" for a moment and may still
 *   delete the recipient, unsubscribe or pause the email before it is rendered; its own tests rely on that. The grace
 *   is that tick, not a time the email is due: with the clock frozen there is none, and the queue drains right away
 *   (docs/emulator.md, "Timed work").
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

type RenderOutcome = {
  user: UserRecord | null;
  address: string | null;
  subject: string;
  html: string;
  text: string;
  category: NotificationCategory;
};

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
  const address =
    recipient.type === "user-primary-email" ? (user?.primaryEmail ?? null) : (recipient.emails[0] ?? null);
  const themeExists = job.themeId === null || findTheme(ctx, job.project.id, job.themeId) !== undefined;
  const themeSource =
    job.themeId === null
      ? themeSourceFor(ctx, job.project, false)
      : themeSourceFor(ctx, job.project, themeExists ? job.themeId : null);
  const input: RenderInput = {
    themeSource,
    templateSource: job.templateSource,
    variables: job.variables,
    user: recipientProps(user),
    project: { displayName: job.project.displayName },
    projectLogos: projectLogosOf(job.project),
    ...renderTimeLimit(ctx),
  };
  // A category the user may turn off puts an unsubscribe link in the email (the theme shows it); the template may name
  // its category, so without an explicit one it is known only after a first rendering (finishCopy).
  const early = job.categoryOverride ? unsubscribeLinkOf(ctx, job, user, job.categoryOverride) : undefined;
  return { job, user, address, input: early ? { ...input, unsubscribeLink: early } : input };
}

const unsubscribeLinkOf = (ctx: OpContext, job: RenderJob, user: UserRecord | null, category: NotificationCategory) =>
  user && category.canDisable ? unsubscribeLinkFor(ctx, job.project.id, user.id, category.id) : undefined;

/**
 * After the first rendering, in a transaction: when the template named a category the user may turn off that was not
 * known before, the input to render again with its unsubscribe link (which makes a code); else null.
 */
function secondInput(ctx: OpContext, entry: PreparedEntry, first: FirstRendering | null): RenderInput | null {
  const copy = entry.copy;
  if (!copy || !first?.ok || copy.job.categoryOverride) return null;
  const category = notificationCategories.find(
    (c) => c.name.toLowerCase() === (first.rendered.notificationCategory ?? "Transactional").toLowerCase(),
  );
  // An unknown category is the entry's render error, decided when it is settled.
  const link = category ? unsubscribeLinkOf(ctx, copy.job, copy.user, category) : undefined;
  return link ? { ...copy.input, unsubscribeLink: link } : null;
}

/** The copy once its renderings are known: the category the template named (or the explicit one), and its content. */
function finishCopy(prepared: PreparedCopy, first: RenderedEmail, second: RenderedEmail | null): RenderOutcome {
  const { job, user, address } = prepared;
  const category = job.categoryOverride ?? categoryNamed(first.notificationCategory ?? "Transactional");
  const rendered = second ?? first;
  // Without a subject given or rendered, the real queue stores an empty one.
  const subject = job.subjectOverride ?? rendered.subject ?? "";
  return { user, address, subject, html: rendered.html, text: rendered.text, category };
}

/** Why this copy is not delivered, decided when it leaves the queue (a user gone, without an address, or who turned the category off). */
function skipReasonFor(
  ctx: OpContext,
  outcome: RenderOutcome,
  recipient: OutboxRecipientRecord,
): OutboxSkippedReason | null {
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
  const categoryOverride = fields.categoryOverrideId
    ? (notificationCategories.find((c) => c.id === fields.categoryOverrideId) ?? null)
    : null;
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

/** A rendering of an entry's copy, or why it failed (a source that fails is the entry's fate, not a refusal). */
export type FirstRendering = { ok: true; rendered: RenderedEmail } | { ok: false; message: string };

/** Renders, with no lock held: the email's own code runs here (domain/ops/outside-lock.ts). */
async function renderOutside(input: RenderInput): Promise<FirstRendering> {
  try {
    return { ok: true, rendered: await renderEmailSources(input) };
  } catch (error) {
    return { ok: false, message: failureMessage(error) };
  }
}

const failureMessage = (error: unknown) =>
  error instanceof KnownErrorException && typeof error.details?.error === "string"
    ? error.details.error
    : error instanceof Error
      ? error.message
      : String(error);

/** Decides a rendered entry's fate and stores it, in a transaction. */
function settleEntry(
  ctx: OpContext,
  entry: PreparedEntry,
  first: FirstRendering | null,
  second: FirstRendering | null,
): void {
  const { email, copy } = entry;
  if (!copy || !first) return;
  const fields = outboxFieldsOf(email);
  // A delivery of an earlier rendering (the entry was edited since) does not carry over: this one is delivered anew.
  const { smtp: _earlierDelivery, ...kept } = fields;
  const done = { ...kept, awaitingRender: false, renderedAtMillis: ctx.now, updatedAtMillis: ctx.now };
  let outcome: RenderOutcome;
  try {
    if (!first.ok) throw new Error(first.message);
    if (second && !second.ok) throw new Error(second.message);
    outcome = finishCopy(copy, first.rendered, second?.rendered ?? null);
  } catch (error) {
    // A source that fails is a "render-error" entry (the real queue renders after send-email answered), never a refusal.
    ctx.tables.emails.set(email.id, { ...email, outbox: { ...done, renderError: failureMessage(error) } });
    return;
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
      ...(skipped ? { sendError: null } : deliveryFieldsFor(ctx, ctx.tables.projects.get(email.projectId))),
    },
  };
  ctx.tables.emails.set(rendered.id, rendered);
}

/**
 * Renders queued entries, one after another and each as it is when its turn comes, without holding the store's lock
 * while an email's code runs (a rendering is 45–100 ms, a runaway one stops at its deadline, and every other request
 * would wait for it). Per entry: its inputs are read in a transaction (skipped unless due: waiting, not paused or
 * cancelled, its delay passed), rendered outside any, the unsubscribe link its category needs made in a second
 * transaction (and rendered again with it), and its fate stored in a third. An entry changed in between (edited,
 * paused, cancelled, deleted: any write replaces its record) is left as it is then: to the queue's next step, or to the
 * request that changed it. The order of the entries, and of what each draws from the random source, is that of a
 * render inside one transaction, so a library user's outcomes repeat. Answers how many entries were settled.
 */
export async function renderQueued(
  inTransaction: InTransaction,
  ids: readonly string[],
  delayMillis?: number,
): Promise<number> {
  let settled = 0;
  for (const id of ids) {
    const entry = await inTransaction((ctx) => {
      const email = ctx.tables.emails.get(id);
      return email && isDue(email, ctx.now, delayMillis ?? emailQueueDelay(ctx)) ? prepareEntry(ctx, email) : null;
    });
    if (!entry) continue;
    const unchanged = (ctx: OpContext) => ctx.tables.emails.get(id) === entry.email;
    const first = entry.copy ? await renderOutside(entry.copy.input) : null;
    const again = await inTransaction((ctx) => (unchanged(ctx) ? { input: secondInput(ctx, entry, first) } : null));
    if (!again) continue;
    const second = again.input ? await renderOutside(again.input) : null;
    const stored = await inTransaction((ctx) => {
      if (!unchanged(ctx)) return false;
      settleEntry(ctx, entry, first, second);
      return true;
    });
    if (stored) settled++;
  }
  return settled;
}

/** Has the request's after-commit work render these entries when the queue runs inline (no delay; afterCommit). */
export function renderInlineAfterCommit(ctx: OpContext, ids: readonly string[]): void {
  if (emailQueueDelay(ctx) === 0 && ids.length > 0)
    ctx.afterCommit((inTransaction) => renderQueued(inTransaction, ids).then(() => undefined));
}

/** Whether the queue would render this entry at `now`: waiting, not paused or cancelled, and its delay passed. */
export function isDue(email: SentEmailRecord, now: number, delayMillis: number): boolean {
  const o = email.outbox;
  return (
    o !== undefined &&
    o.awaitingRender === true &&
    !o.isPaused &&
    o.skippedReason === null &&
    now >= o.updatedAtMillis + delayMillis
  );
}

/**
 * When the earliest waiting entry becomes due, or null when none waits (paused and cancelled ones wait for nothing): a
 * read without the store's lock, so requests pay for a transaction only when there is work.
 */
export function nextDueAt(emails: Iterable<SentEmailRecord>, delayMillis: number): number | null {
  let next: number | null = null;
  for (const email of emails) {
    const o = email.outbox;
    if (!o?.awaitingRender || o.isPaused || o.skippedReason !== null) continue;
    const at = o.updatedAtMillis + delayMillis;
    if (next === null || at < next) next = at;
  }
  return next;
}

/**
 * The queue's step (emulator/timed-work/email-queue-worker.ts): the entries due now, oldest first, read in a
 * transaction; renderQueued then renders them outside the store's lock. `delayMillis`: the grace (none while the clock
 * is frozen).
 */
export const dueEmailIds = (ctx: OpContext, delayMillis: number = emailQueueDelay(ctx)): string[] =>
  [...ctx.tables.emails.indexed("awaitingRender")]
    .filter((e) => isDue(e, ctx.now, delayMillis))
    .sort((a, b) => a.seq - b.seq)
    .map((e) => e.id);
