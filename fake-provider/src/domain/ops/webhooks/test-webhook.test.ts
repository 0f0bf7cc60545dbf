import { afterEach, describe, expect, it } from "vitest";
import { Webhook } from "svix";
import { systemClock } from "@authsim/sdk/runtime";
import { admin, api, DEV, expectJson, newProvider, type TestProvider } from "../../../test-support/api.ts";
import { receiverForTests } from "../../../test-support/webhook-receiver.ts";

/**
 * POST /internal/send-test-webhook (domain/ops/webhooks/test-webhook.ts): a real stack.test message, posted to the named
 * endpoint before the answer, which says whether the endpoint took it.
 */

const receiver = receiverForTests();
let provider: TestProvider;
afterEach(() => {
  provider.work.stop();
  expect(provider.unexpected).toEqual([]);
});

const sendTest = async (endpoint_id: string) =>
  expectJson(await api(provider, "/internal/send-test-webhook", { headers: admin(), json: { endpoint_id } }));

describe("POST /internal/send-test-webhook", () => {
  it("posts a signed stack.test event to the endpoint and answers success once it took it", async () => {
    // Svix's verify checks svix-timestamp against the wall clock.
    provider = newProvider({ clock: systemClock });
    const endpoint = await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    expect(await sendTest(endpoint.id)).toEqual({ success: true });
    expect(receiver.received).toHaveLength(1);
    const verified = new Webhook(endpoint.secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers);
    expect(verified).toEqual({
      type: "stack.test",
      data: { message: "Stack webhook test event triggered from the Stack dashboard.", endpointUrl: receiver.url },
    });
    // Recorded as any delivery's attempt.
    expect(provider.webhooks.attempts({ endpointId: endpoint.id })).toMatchObject([
      { eventType: "stack.test", status: "success", statusCode: 204 },
    ]);
  });

  it("answers not delivered when the endpoint refuses it, and not found for an endpoint the project lacks", async () => {
    provider = newProvider();
    const endpoint = await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    receiver.answer = (res) => res.writeHead(500).end("no");
    expect(await sendTest(endpoint.id)).toEqual({
      success: false,
      error_message: "Webhook not delivered. Make sure the endpoint is configured correctly.",
    });
    expect(await sendTest("ep_doesnotexist")).toEqual({
      success: false,
      error_message: "Endpoint not found. Make sure it still exists.",
    });
    // An endpoint whose filter leaves stack.test out gets nothing.
    const filtered = await provider.webhooks.addEndpoint(DEV.id, receiver.url, { filterTypes: ["user.created"] });
    expect(await sendTest(filtered.id)).toMatchObject({ success: false });
    expect(provider.webhooks.attempts({ endpointId: filtered.id })).toEqual([]);
  });
});
