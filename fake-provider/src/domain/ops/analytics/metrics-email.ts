import type { OpContext } from "../context.ts";
import { outboxFieldsOf, outboxStatusOf } from "../emails/email-outbox.ts";
import { bump, dailySeries, isoDay, type MetricsWindow } from "./metrics-window.ts";

/**
 * The email figures of GET /internal/metrics, from the project's outbox as the real route reads its EmailOutbox table:
 * counts by simple status, sends per day, the newest entries. Delivery receipts, bounces and clicks come to the real
 * service from its mail provider's webhooks; the emulator's mail goes nowhere that reports back, so those stay zero (and
 * with them the rates), as they do on the real service with an SMTP server of the project's own.
 */

const RECENT_EMAILS = 100;

export function emailOverview(ctx: OpContext, projectId: string, w: MetricsWindow) {
  const emails = [...ctx.tables.emails.values()]
    .filter((e) => e.projectId === projectId)
    .map((e) => ({ email: e, ...outboxStatusOf(e, ctx.now) }));
  const bySimple = new Map<string, number>();
  const perDay = new Map<string, number>();
  const perDayBySimple = new Map<string, { ok: number; error: number; in_progress: number }>();
  let finishedSending = 0;
  for (const { email, status, simple } of emails) {
    bump(bySimple, simple);
    // The real service marks an entry finished when its sending ended, delivered or refused.
    if (status === "sent" || status === "server-error") finishedSending++;
    if (email.sentAtMillis < w.since) continue;
    const day = isoDay(email.sentAtMillis);
    bump(perDay, day);
    const counts = perDayBySimple.get(day) ?? { ok: 0, error: 0, in_progress: 0 };
    perDayBySimple.set(day, counts);
    counts[simple === "in-progress" ? "in_progress" : simple]++;
  }
  // Only the statuses some entry has, in the real route's order.
  const emailsByStatus: Record<string, number> = {};
  for (const simple of ["ok", "error", "in-progress"])
    if (bySimple.has(simple)) emailsByStatus[simple] = bySimple.get(simple)!;
  return {
    emails_by_status: emailsByStatus,
    total_emails: emails.length,
    emails_sent: finishedSending,
    daily_emails: dailySeries(w, perDay),
    daily_emails_by_status: w.days.map((date) => ({
      date,
      ...(perDayBySimple.get(date) ?? { ok: 0, error: 0, in_progress: 0 }),
    })),
    deliverability_status: {
      delivered: 0,
      bounced: 0,
      error: emailsByStatus.error ?? 0,
      in_progress: emailsByStatus["in-progress"] ?? 0,
    },
    deliverability_rate: 0,
    bounce_rate: 0,
    click_rate: 0,
    recent_emails: emails
      .sort((a, b) => b.email.sentAtMillis - a.email.sentAtMillis || b.email.seq - a.email.seq)
      .slice(0, RECENT_EMAILS)
      .map(({ email, status }) => ({
        id: email.id,
        // The real column is the enum's name: SENT, SERVER_ERROR, …
        status: status.toUpperCase().replaceAll("-", "_"),
        // Not rendered yet: no subject.
        subject: outboxFieldsOf(email).awaitingRender ? "(no subject)" : email.subject,
        created_at_millis: email.sentAtMillis,
      })),
  };
}
