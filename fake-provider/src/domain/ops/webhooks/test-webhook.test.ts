import { afterEach, describe, expect, it } from "vitest";
import {
  DEV,
  START_MILLIS,
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";
import { receiverForTests } from "../../../test-support/webhook-receiver.ts";

/** POST /internal/send-test-webhook: the dashboard's test button, answered with the delivery's outcome. */

const receiver = receiverForTests();
let provider: TestProvider;
afterEach(() => {
  provider.work.stop();
  expect(provider.unexpected).toEqual([]);
});

const sendTest = (endpointId: string) =>
  api(provider, "/internal/send-test-webhook", { headers: admin(), json: { endpoint_id: endpointId } });

describe("POST /internal/send-test-webhook", () => {
  it("delivers a stack.test event to the endpoint and answers success once it was received", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    const endpoint = await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    expect(await expectJson(await sendTest(endpoint.id))).toEqual({ success: true });
    expect(receiver.received.map((r) => JSON.parse(r.body) as unknown)).toEqual([
      {
        type: "stack.test",
        data: { message: "Stack webhook test event triggered from the Stack dashboard.", endpointUrl: receiver.url },
      },
    ]);
  });

  it("answers the real failure texts: an endpoint that refuses it, and one the project does not have", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    const endpoint = await provider.webhooks.addEndpoint(DEV.id, receiver.url);
    receiver.answer = (res) => res.writeHead(500).end("down");
    expect(await expectJson(await sendTest(endpoint.id))).toEqual({
      success: false,
      error_message: "Webhook not delivered. Make sure the endpoint is configured correctly.",
    });
    expect(receiver.received).toHaveLength(1);
    expect(await expectJson(await sendTest("ep_2ZZZZZZZZZZZZZZZZZZZZZZZZZZ"))).toEqual({
      success: false,
      error_message: "Endpoint not found. Make sure it still exists.",
    });
    expect(receiver.received).toHaveLength(1);
  });

  it("is admin only", async () => {
    provider = newProvider({ frozenAtMillis: START_MILLIS });
    await expectKnownError(
      await api(provider, "/internal/send-test-webhook", { headers: server(), json: { endpoint_id: "ep_x" } }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });
});
