import type { ControllableClock } from "../../clock.ts";
import { runOp, type OpDeps } from "../../domain/run-op.ts";
import { outboxStatusOf } from "../../domain/ops/emails/email-outbox.ts";
import { dueEmailIds, nextDueAt, renderQueued } from "../../domain/ops/emails/email-queue.ts";
import type { TimedWorker } from "./runner.ts";

/**
 * The email queue (domain/ops/emails/email-queue.ts) as timed work. The real service drains it continuously, so it is
 * right-away work: the dev server's grace (`emailQueueDelayMillis`, about one tick of the real worker, so polling
 * clients see "preparing") counts while the clock runs, and with the clock frozen there is none. Renders outside the
 * store's lock (renderQueued: each entry read, rendered with no lock held, then stored).
 */
export function emailQueueWorker(deps: OpDeps & { clock: ControllableClock }): TimedWorker {
  const grace = () => (deps.clock.frozen ? 0 : (deps.settings.emailQueueDelayMillis ?? 0));
  const waiting = () => deps.store.read.emails.indexed("awaitingRender");
  return {
    kind: "email-queue",
    holdsRequests: true,
    nextDueAt: () => nextDueAt(waiting(), grace()),
    async step() {
      const delay = grace();
      const ids = await runOp(deps, (ctx) => dueEmailIds(ctx, delay));
      return renderQueued((op) => runOp(deps, op), ids, delay);
    },
    pending() {
      const delay = grace();
      const byInstant = new Map<number, number>();
      for (const email of waiting()) {
        const at = nextDueAt([email], delay);
        if (at !== null) byInstant.set(at, (byInstant.get(at) ?? 0) + 1);
      }
      // Scheduled emails wait for their instant too, though no step runs for them: the outbox shows an email once the
      // clock has passed its schedule (domain/ops/emails/email-outbox.ts).
      const now = deps.clock.now();
      const scheduled = new Map<number, number>();
      for (const email of deps.store.read.emails.values()) {
        // (A retry waiting for its backoff is the SMTP worker's to show: smtp-delivery-worker.ts.)
        if (
          email.outbox &&
          !email.outbox.smtp?.nextAttemptAtMillis &&
          outboxStatusOf(email, now).status === "scheduled"
        )
          scheduled.set(email.outbox.scheduledAtMillis, (scheduled.get(email.outbox.scheduledAtMillis) ?? 0) + 1);
      }
      return [
        ...[...byInstant].map(([dueAtMillis, count]) => ({
          kind: "email-queue",
          what: "queued email",
          count,
          dueAtMillis,
        })),
        ...[...scheduled].map(([dueAtMillis, count]) => ({
          kind: "scheduled-email",
          what: "scheduled email",
          count,
          dueAtMillis,
        })),
      ];
    },
  };
}
