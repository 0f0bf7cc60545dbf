import { describe, expect, it } from "vitest";
import { runOp } from "../../run-op.ts";
import { DEV, START_MILLIS, newProvider } from "../../../test-support/api.ts";
import {
  createEndpoint,
  createMessage,
  droppedWebhookMessages,
  projectApp,
  takeDueDeliveries,
  trimMessages,
} from "./webhooks.ts";

/** The webhook state's bound: the oldest messages go past the capacity, but never one with an attempt still to come. */

describe("the messages a provider keeps", () => {
  it("drops the oldest settled messages past the capacity, with their deliveries, and counts them", async () => {
    const provider = newProvider({ frozenAtMillis: START_MILLIS });
    const kept = await runOp(provider, (ctx) => {
      const app = projectApp(ctx, DEV.id);
      const ids = Array.from(
        { length: 5 },
        (_, i) => createMessage(ctx, app, { eventType: "stack.test", payload: { i } }).id,
      );
      trimMessages(ctx, 3);
      return {
        ids,
        left: [...ctx.tables.svixMessages.values()].map((m) => m.id),
        dropped: droppedWebhookMessages(ctx),
      };
    });
    expect(kept.left).toEqual(kept.ids.slice(2));
    expect(kept.dropped).toBe(2);
  });

  it("keeps a message whose delivery is still to come, and everything after it", async () => {
    const provider = newProvider({ frozenAtMillis: START_MILLIS });
    const left = await runOp(provider, (ctx) => {
      const app = projectApp(ctx, DEV.id);
      createEndpoint(ctx, app, { url: "http://127.0.0.1:9/hook" });
      for (let i = 0; i < 4; i++) createMessage(ctx, app, { eventType: "stack.test", payload: { i } });
      trimMessages(ctx, 1);
      return {
        messages: ctx.tables.svixMessages.size,
        deliveries: ctx.tables.svixDeliveries.size,
        due: takeDueDeliveries(ctx).length,
      };
    });
    expect(left).toEqual({ messages: 4, deliveries: 4, due: 4 });
    provider.work.stop();
  });
});
