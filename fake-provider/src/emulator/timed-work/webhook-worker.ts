import type { ControllableClock } from "../../clock.ts";
import { runOp, type OpDeps } from "../../domain/run-op.ts";
import {
  recordAttempt,
  takeDueDeliveries,
  type AttemptOutcome,
  type DeliveryJob,
} from "../../domain/ops/webhooks/webhooks.ts";
import { svixHeaders } from "../../domain/webhooks/signature.ts";
import type { TimedWorker } from "./runner.ts";

/**
 * Webhook deliveries as timed work: a message's first attempt is due when it is made (right away), each retry when its
 * backoff has passed on the emulator's clock (domain/ops/webhooks/webhooks.ts). A step takes what is due in one transaction,
 * then posts each, one after the other in the order they were scheduled (so a deterministic run records the same
 * attempts), each outside any transaction and recorded in a transaction of its own as soon as it is answered.
 *
 * Requests never wait for deliveries: an endpoint is another server, perhaps slow or gone. Each attempt is bounded
 * (`timeoutMillis`), and only the first `RESPONSE_LIMIT` characters of an answer are read and kept.
 */

/** Svix keeps a short response body; reading stops there, so a huge answer costs nothing. */
export const RESPONSE_LIMIT = 4_096;
/** Svix gives an endpoint 15 s to answer. */
export const DEFAULT_WEBHOOK_TIMEOUT_MILLIS = 15_000;

export interface WebhookWorkerOptions {
  timeoutMillis?: number;
  /** Where attempts are posted; the global fetch by default. */
  fetch?: typeof fetch;
}

/** The first `limit` characters of a body, without reading the rest of it. */
async function readLimited(response: Response, limit: number): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return text.slice(0, limit);
}

function failureText(error: unknown, timeoutMillis: number): string {
  if (error instanceof DOMException && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `No answer within ${timeoutMillis} ms (timed out).`;
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

export async function attemptDelivery(
  job: DeliveryJob,
  clock: { now(): number },
  options: WebhookWorkerOptions = {},
): Promise<AttemptOutcome> {
  const timeoutMillis = options.timeoutMillis ?? DEFAULT_WEBHOOK_TIMEOUT_MILLIS;
  const post = options.fetch ?? fetch;
  const startedAtMillis = clock.now();
  const headers = {
    "content-type": "application/json",
    "user-agent": "Svix-Webhooks/authsim",
    ...(await svixHeaders(job.secret, job.msgId, job.timestampSeconds, job.body)),
  };
  let statusCode = 0;
  let response: string;
  try {
    const signal = AbortSignal.timeout(timeoutMillis);
    const answer = await post(job.url, { method: "POST", headers, body: job.body, redirect: "manual", signal });
    statusCode = answer.status;
    response = await readLimited(answer, RESPONSE_LIMIT);
  } catch (error) {
    response = failureText(error, timeoutMillis);
  }
  // Measured on the emulator's clock, like every recorded time: a frozen clock records 0, and runs repeat exactly.
  return { statusCode, response, durationMillis: Math.max(clock.now() - startedAtMillis, 0), startedAtMillis };
}

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
