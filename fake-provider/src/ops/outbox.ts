import { uuid } from "@authsim/sdk/runtime";
import { renderEmail, type EmailKind } from "../email/templates.ts";
import type { SentEmailRecord } from "../store/records.ts";
import { nextSequence } from "../store/store.ts";
import type { OpContext } from "./context.ts";

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
  };
  ctx.tables.emails.set(record.id, record);
  return record;
}
