import type { OpContext } from "../context.ts";
import { outsideLock, type Step } from "../outside-lock.ts";
import { attemptsWhere, createMessage, findEndpoint, projectApp } from "./webhooks.ts";

/**
 * POST /internal/send-test-webhook {endpoint_id}: the dashboard's "test" button, as upstream runs it against Svix. The
 * project's application is made if need be; an endpoint it does not have is `success: false` with upstream's words.
 * Otherwise a `stack.test` message is created (so, as in Svix, every endpoint of the project that takes that event type
 * gets it), and the answer waits for its first attempt to this endpoint: success only once that attempt succeeded.
 *
 * This is the one request that waits for a delivery (upstream polls Svix for a successful attempt): the delivery stays
 * the webhook worker's, run outside any transaction through `settings.runDueWork`, bounded by its attempt timeout.
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
/** The test event's text, as upstream sends it. */
const TEST_MESSAGE = "Stack webhook test event triggered from the Stack dashboard.";

export function sendTestWebhook(ctx: OpContext, projectId: string, endpointId: string): Step<TestWebhookResult> {
  const app = projectApp(ctx, projectId);
  const endpoint = findEndpoint(ctx, app, endpointId);
  if (!endpoint) return NOT_FOUND;
  const message = createMessage(ctx, app, {
    eventType: "stack.test",
    payload: { type: "stack.test", data: { message: TEST_MESSAGE, endpointUrl: endpoint.url } },
  });
  const runDueWork = ctx.settings.runDueWork;
  return outsideLock(
    () => (runDueWork ? runDueWork() : Promise.resolve()),
    (after) =>
      attemptsWhere(after, (a) => a.msgId === message.id && a.endpointId === endpoint.id && a.status === 0).length > 0
        ? { success: true }
        : NOT_DELIVERED,
  );
}
