import type { AttemptOutcome, DeliveryJob } from "../ops/webhooks/webhooks.ts";
import { svixHeaders } from "./signature.ts";

/**
 * One webhook attempt over HTTP, as Svix makes it: the message's JSON, signed (signature.ts), posted to the endpoint
 * with no redirect followed, bounded in time, and its answer read only up to RESPONSE_LIMIT. Outside any transaction:
 * the timed work's webhook worker (emulator/timed-work/webhook-worker.ts) and the test webhook
 * (domain/ops/webhooks/test-webhook.ts) call it between the transactions that take and record the attempt.
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
