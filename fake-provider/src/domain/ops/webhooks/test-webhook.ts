import { attemptDelivery } from "../../webhooks/delivery.ts";
import type { OpContext } from "../context.ts";
import { outsideLock, type Step } from "../outside-lock.ts";
import { createMessage, findEndpoint, projectApp, recordAttempt, STATUS, takeDelivery } from "./webhooks.ts";

/**
 * POST /internal/send-test-webhook (the dashboard's "send test event"): a `stack.test` message to the project's Svix
 * application, then whether the named endpoint got it. As the real handler: the application is made if missing; an
 * endpoint that is not the project's answers success false, "not found"; the message goes to every endpoint that takes
 * it (the others through the usual deliveries); the answer is success true only once the named endpoint answered the
 * attempt with a 2xx. That attempt is made here, outside the store's lock, and recorded as any delivery's (a failure
 * then retries on Svix's schedule), so the answer says what really happened at the endpoint's URL.
 */

export interface TestWebhookResult {
  success: boolean;
  error_message?: string;
}

const NOT_FOUND: TestWebhookResult = {
  success: false,
  error_message: "Endpoint not found. Make sure it still exists.",
};
const NOT_DELIVERED: TestWebhookResult = {
  success: false,
  error_message: "Webhook not delivered. Make sure the endpoint is configured correctly.",
};

export function sendTestWebhook(ctx: OpContext, projectId: string, endpointId: string): Step<TestWebhookResult> {
  const app = projectApp(ctx, projectId);
  const endpoint = findEndpoint(ctx, app, endpointId);
  if (!endpoint) return NOT_FOUND;
  const message = createMessage(ctx, app, {
    eventType: "stack.test",
    payload: {
      type: "stack.test",
      data: { message: "Stack webhook test event triggered from the Stack dashboard.", endpointUrl: endpoint.url },
    },
  });
  // A disabled endpoint, or one whose filter leaves stack.test out, gets no delivery: nothing is delivered to it.
  const delivery = ctx.tables.svixDeliveries.get(`${message.id}:${endpoint.id}`);
  const job = delivery && takeDelivery(ctx, delivery);
  if (!job) return NOT_DELIVERED;
  const startedAtMillis = ctx.now;
  return outsideLock(
    () => attemptDelivery(job, { now: () => startedAtMillis }, { timeoutMillis: ctx.settings.webhookTimeoutMillis }),
    (after, outcome) => {
      const attempt = recordAttempt(after, job, {
        ...outcome,
        durationMillis: Math.max(after.now - startedAtMillis, 0),
      });
      return attempt?.status === STATUS.success ? { success: true } : NOT_DELIVERED;
    },
  );
}
