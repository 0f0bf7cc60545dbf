import { uuid } from "@authsim/sdk/runtime";
import { renderEmail, type EmailKind } from "../../email/templates.ts";
import type { OutboxRecipientRecord, ProjectRecord, SentEmailRecord } from "../../store/records.ts";
import { nextSequence } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { htmlTemplateSource, newOutboxFields } from "./email-outbox.ts";
import { deliveryFieldsFor } from "./mail-server.ts";

/** How many emails the outbox keeps unless the provider is told otherwise (`outboxCapacity`). */
export const DEFAULT_OUTBOX_CAPACITY = 10_000;
const DROPPED_COUNTER = "emails_dropped";
/** The shared email server's sender address (the real service's development STACK_EMAIL_SENDER). */
export const SHARED_SENDER_ADDRESS = "noreply@example.com";

/** A From header as the real service's mailer writes it. */
export const fromHeader = (name: string, address: string) => `"${name}" <${address}>`;

/** Who a project's emails come from: its own server's sender, or its name at the shared server's address. */
export function senderOf(project: ProjectRecord): string {
  const config = project.config.email_config;
  return config?.type === "standard"
    ? fromHeader(config.sender_name, config.sender_email)
    : fromHeader(project.displayName, SHARED_SENDER_ADDRESS);
}

/**
 * Puts an email in the outbox, dropping the oldest past the capacity: a long-running dev server or a load test must
 * not grow without bound (each email holds its HTML). The emails table keeps insertion order, so its oldest row is the oldest email.
 */
export function keepInOutbox(ctx: OpContext, record: SentEmailRecord): void {
  const project = ctx.tables.projects.get(record.projectId);
  const kept = record.from === undefined && project ? { ...record, from: senderOf(project) } : record;
  ctx.tables.emails.set(kept.id, kept);
  const capacity = ctx.settings.outboxCapacity ?? DEFAULT_OUTBOX_CAPACITY;
  while (ctx.tables.emails.size > capacity) {
    const oldest = ctx.tables.emails.oldest();
    if (oldest === undefined) break;
    ctx.tables.emails.delete(oldest.id);
    nextSequence(ctx.tables, DROPPED_COUNTER);
  }
}

/** How many emails fell out of the outbox since the last reset (shown by the dashboard and GET /__emulator/outbox). */
export function droppedEmailCount(tables: Pick<OpContext["tables"], "counters">): number {
  return tables.counters.get(DROPPED_COUNTER) ?? 0;
}

/** As upstream sends its default templates: to the given address, on behalf of the user when there is one (so unsubscribing counts). */
function builtInRecipient(to: string, userId: string | null): OutboxRecipientRecord {
  return userId === null
    ? { type: "custom-emails", emails: [to] }
    : { type: "user-custom-emails", userId, emails: [to] };
}

/** "Sending" an email: it lands in the outbox (a table), with its code and link for tests and the dashboard. */
export function sendEmail(
  ctx: OpContext,
  input: {
    projectId: string;
    to: string;
    kind: EmailKind;
    userId?: string | null;
    code?: string | null;
    otp?: string | null;
    link?: string | null;
    teamName?: string;
  },
): SentEmailRecord {
  const project = ctx.tables.projects.get(input.projectId);
  const content = renderEmail(input.kind, {
    projectName: project?.displayName ?? input.projectId,
    link: input.link ?? null,
    otp: input.otp ?? null,
    ...(input.teamName !== undefined ? { teamName: input.teamName } : {}),
  });
  const record: SentEmailRecord = {
    id: uuid(ctx.random),
    projectId: input.projectId,
    to: [input.to],
    subject: content.subject,
    kind: input.kind,
    html: content.html,
    text: content.text,
    code: input.code ?? null,
    otp: input.otp ?? null,
    link: input.link ?? null,
    userId: input.userId ?? null,
    sentAtMillis: ctx.now,
    seq: nextSequence(ctx.tables, "emails"),
    // The built-in emails are outbox entries too: transactional, sent at once, to the user's address or a given one.
    // A project mail server that cannot be reached fails them as it fails custom emails (domain/ops/emails/mail-server.ts).
    outbox: newOutboxFields(ctx, builtInRecipient(input.to, input.userId ?? null), {
      tsxSource: htmlTemplateSource(content.html),
      ...deliveryFieldsFor(ctx, project),
    }),
  };
  keepInOutbox(ctx, record);
  return record;
}
