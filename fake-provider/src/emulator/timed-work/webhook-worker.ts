import type { ControllableClock } from "../../clock.ts";
import { runOp, type OpDeps } from "../../domain/run-op.ts";
import { recordAttempt, takeDueDeliveries } from "../../domain/ops/webhooks/webhooks.ts";
import { attemptDelivery, type WebhookWorkerOptions } from "../../domain/webhooks/delivery.ts";
import type { TimedWorker } from "./runner.ts";

export {
  attemptDelivery,
  DEFAULT_WEBHOOK_TIMEOUT_MILLIS,
  RESPONSE_LIMIT,
  type WebhookWorkerOptions,
} from "../../domain/webhooks/delivery.ts";

/**
 * Webhook deliveries as timed work: a message's first attempt is due when it is made (right away), each retry when its
 * backoff has passed on the emulator's clock (domain/ops/webhooks/webhooks.ts). A step takes what is due in one transaction,
 * then posts each, one after the other in the order they were scheduled (so a deterministic run records the same
 * attempts), each outside any transaction and recorded in a transaction of its own as soon as it is answered.
 *
 * Requests never wait for deliveries: an endpoint is another server, perhaps slow or gone. Each attempt is bounded
 * (`timeoutMillis`), and only the first `RESPONSE_LIMIT` characters of an answer are read and kept
 * (domain/webhooks/delivery.ts, which POST /internal/send-test-webhook uses too).
 */

export function webhookWorker(
  deps: OpDeps & { clock: ControllableClock },
  options: WebhookWorkerOptions = {},
): TimedWorker {
  const scheduled = () => deps.store.read.svixDeliveries.indexed("scheduled");
  return {
    kind: "webhook-delivery",
    holdsRequests: false,
    nextDueAt() {
      let next: number | null = null;
      for (const d of scheduled())
        if (d.nextAttemptAtMillis !== null && (next === null || d.nextAttemptAtMillis < next))
          next = d.nextAttemptAtMillis;
      return next;
    },
    async step() {
      const jobs = await runOp(deps, takeDueDeliveries);
      for (const job of jobs) {
        const outcome = await attemptDelivery(job, deps.clock, options);
        await runOp(deps, (ctx) => recordAttempt(ctx, job, outcome));
      }
      return jobs.length;
    },
    pending() {
      const byInstant = new Map<number, number>();
      for (const d of scheduled())
        if (d.nextAttemptAtMillis !== null)
          byInstant.set(d.nextAttemptAtMillis, (byInstant.get(d.nextAttemptAtMillis) ?? 0) + 1);
      return [...byInstant].map(([dueAtMillis, count]) => ({
        kind: "webhook-delivery",
        what: "webhook attempt",
        count,
        dueAtMillis,
      }));
    },
  };
}
