import type { SentEmailRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { outboxFieldsOf, outboxStatusOf } from "./email-outbox.ts";
import { membersOf } from "../teams/memberships.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * The real service's cron endpoints for email (GET /internal/email-queue-step, POST /internal/failed-emails-digest):
 * called with `Authorization: Bearer <CRON_SECRET>`. The emulator's secret is the one the real service's development
 * setup uses, so its tests and tools call them unchanged. Its email queue needs no stepping (an outbox entry's status
 * is a function of the clock), so a step only answers.
 */
export const CRON_SECRET = "mock_cron_secret";

/** Anything but the exact bearer secret is the real service's plain-text 401. */
export function requireCronSecret(authorization: string): void {
  if (authorization !== `Bearer ${CRON_SECRET}`) throw refusal("unauthorized");
}

export function emailQueueStep(authorization: string): { ok: true } {
  requireCronSecret(authorization);
  return { ok: true };
}

const DAY_MILLIS = 24 * 60 * 60 * 1000;

export interface FailedEmailsBatch {
  emails: { subject: string; to: string[] }[];
  tenant_owner_emails: string[];
  project_id: string;
  tenancy_id: string;
}

/** Who a failed email was for, as the digest lists it. */
function recipientsOf(email: SentEmailRecord): string[] {
  const to = outboxFieldsOf(email).recipient;
  return to.type === "user-primary-email" ? [`User ID: ${to.userId}`] : [...to.emails];
}

/**
 * POST /internal/failed-emails-digest: per project, the emails of the last 24 hours whose outbox status is an error,
 * with the primary emails of the owner team's members (one per failed email, as the real service lists them; projects
 * without an owner with an email are left out). Sending the digest is off in the real service too: a run that is not a
 * dry run and has a digest to send answers 500 with `success: false`.
 */
export function failedEmailsDigest(
  ctx: OpContext,
  authorization: string,
  dryRun: boolean,
): { status: 200 | 500; body: { success: boolean; failed_emails_by_tenancy: FailedEmailsBatch[] } } {
  requireCronSecret(authorization);
  const batches = new Map<string, FailedEmailsBatch>();
  const emails = [...ctx.tables.emails.values()].sort((a, b) => a.seq - b.seq);
  for (const email of emails) {
    if (email.sentAtMillis < ctx.now - DAY_MILLIS || outboxStatusOf(email, ctx.now).simple !== "error") continue;
    const project = ctx.tables.projects.get(email.projectId);
    if (!project?.ownerTeamId) continue;
    const owners = membersOf(ctx, project.ownerTeamId)
      .map((m) => ctx.tables.users.get(m.userId)?.primaryEmail ?? null)
      .filter((e): e is string => e !== null);
    if (owners.length === 0) continue;
    const batch = batches.get(project.id) ?? {
      emails: [],
      tenant_owner_emails: [],
      project_id: project.id,
      tenancy_id: project.id,
    };
    batch.emails.push({ subject: email.subject, to: recipientsOf(email) });
    batch.tenant_owner_emails.push(...owners);
    batches.set(project.id, batch);
  }
  const failedEmailsByTenancy = [...batches.values()];
  const digestWouldBeSent = !dryRun && failedEmailsByTenancy.length > 0;
  return {
    status: digestWouldBeSent ? 500 : 200,
    body: { success: !digestWouldBeSent, failed_emails_by_tenancy: failedEmailsByTenancy },
  };
}
