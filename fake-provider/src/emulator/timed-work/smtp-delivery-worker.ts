import { sendOverSmtp } from "#smtp-client";
import type { ControllableClock } from "../../clock.ts";
import { runOp, type OpDeps } from "../../domain/run-op.ts";
import {
  claimSmtpAttempt,
  recordSmtpOutcome,
  smtpDueAt,
  type SendOverSmtp,
} from "../../domain/ops/emails/smtp-delivery.ts";
import type { TimedWorker } from "./runner.ts";

/**
 * Delivery to projects' own mail servers over SMTP (domain/ops/emails/smtp-delivery.ts) as timed work: an entry is due
 * when rendered and its schedule (or its retry's backoff) has come on the emulator's clock, so advancing the clock
 * brings a retry. Each attempt is claimed in one transaction ("sending"), made with no lock held, and its outcome
 * stored in another. Requests never wait for it: a mail server is another machine, perhaps slow or gone (each
 * connection is bounded: smtp-client-node.ts).
 */
export function smtpDeliveryWorker(
  deps: OpDeps & { clock: ControllableClock },
  send: SendOverSmtp = sendOverSmtp,
): TimedWorker {
  const pendingEmails = () => [...deps.store.read.emails.indexed("smtpPending")];
  // The attempts this worker has open. An entry that reads "sending" without one (a snapshot restored mid-attempt)
  // would otherwise wait for ever: it is due again.
  const inFlight = new Set<string>();
  const waiting = (id: string, sendingSince: number | null) => sendingSince === null || !inFlight.has(id);
  const nextDueAt = () => {
    let earliest: number | null = null;
    for (const email of pendingEmails()) {
      if (!waiting(email.id, email.outbox!.smtp!.sendingSinceMillis)) continue;
      const at = smtpDueAt(email);
      if (earliest === null || at < earliest) earliest = at;
    }
    return earliest;
  };
  return {
    kind: "smtp-delivery",
    holdsRequests: false,
    nextDueAt,
    async step() {
      const now = deps.clock.now();
      const due = pendingEmails()
        .filter((e) => waiting(e.id, e.outbox!.smtp!.sendingSinceMillis) && smtpDueAt(e) <= now)
        .sort((a, b) => a.seq - b.seq)
        .map((e) => e.id);
      let handled = 0;
      for (const id of due) {
        inFlight.add(id);
        try {
          const attempt = await runOp(deps, (ctx) => claimSmtpAttempt(ctx, id, true));
          if (!attempt) continue;
          const outcome = await send(attempt.server, attempt.message);
          await runOp(deps, (ctx) => recordSmtpOutcome(ctx, id, outcome));
          handled++;
        } finally {
          inFlight.delete(id);
        }
      }
      return handled;
    },
    pending() {
      const byInstant = new Map<number, number>();
      for (const email of pendingEmails()) {
        const at = smtpDueAt(email);
        byInstant.set(at, (byInstant.get(at) ?? 0) + 1);
      }
      return [...byInstant].map(([dueAtMillis, count]) => ({
        kind: "smtp-delivery",
        what: "email to a project's mail server",
        count,
        dueAtMillis,
      }));
    },
  };
}
