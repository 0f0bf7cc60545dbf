import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { controlClient } from "@authsim/sdk/emulator";
import { createFakeProvider } from "@authsim/fake-provider";
import type { DevServer } from "./server.ts";

/**
 * Webhook delivery latency (issue 26: goal ≤ 10 ms on loopback): from a change's request being sent (POST /users) to
 * its user.created arriving at an endpoint on this machine, and from the change's answer to the arrival. Sequential,
 * one change at a time, so each figure is a delivery's own latency and not a queue's.
 */

export interface WebhookLatency {
  deliveries: number;
  /** From the request sent to the webhook received: p50, p99 (ms). */
  fromRequest: { p50: number; p99: number };
  /** From the answer read to the webhook received (negative: the webhook came first). */
  afterAnswer: { p50: number; p99: number };
}

const serverHeaders = {
  "x-stack-access-type": "server",
  "x-stack-project-id": dev.id,
  "x-stack-secret-server-key": dev.keys.secret_server_key,
  "content-type": "application/json",
};

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

/** A receiver that resolves the next arrival's time; answers 204 at once. */
async function receiver() {
  let next: ((at: number) => void) | null = null;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const at = performance.now();
      res.writeHead(204).end();
      next?.(at);
      next = null;
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrival: () => new Promise<number>((resolve) => (next = resolve)),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function measure(
  fetchFn: (url: string, init?: RequestInit) => Promise<Response>,
  base: string,
  deliveries: number,
): Promise<WebhookLatency> {
  const hook = await receiver();
  const control = controlClient({ baseUrl: base, fetch: fetchFn });
  await control.call("addWebhookEndpoint", { body: { projectId: dev.id, url: hook.url } });
  const fromRequest: number[] = [];
  const afterAnswer: number[] = [];
  for (let i = 0; i < deliveries + 20; i++) {
    const arrived = hook.arrival();
    const sent = performance.now();
    const response = await fetchFn(`${base}/api/v1/users`, {
      method: "POST",
      headers: serverHeaders,
      body: JSON.stringify({}),
    });
    await response.arrayBuffer();
    const answered = performance.now();
    const at = await arrived;
    // The first 20 warm the server and the connections up.
    if (i >= 20) {
      fromRequest.push(at - sent);
      afterAnswer.push(at - answered);
    }
  }
  await hook.close();
  return {
    deliveries,
    fromRequest: { p50: quantile(fromRequest, 0.5), p99: quantile(fromRequest, 0.99) },
    afterAnswer: { p50: quantile(afterAnswer, 0.5), p99: quantile(afterAnswer, 0.99) },
  };
}

/** Against the dev server in its own process (loopback both ways). */
export const loopbackWebhookLatency = (server: DevServer, deliveries = 200) =>
  measure((url, init) => fetch(url, init), server.base, deliveries);

/** Against a provider in this process (the delivery still crosses loopback to the receiver). */
export async function inProcessWebhookLatency(deliveries = 200): Promise<WebhookLatency> {
  const provider = createFakeProvider({ onUnexpectedError: (e) => console.error(e) });
  try {
    return await measure(provider.fetch, "http://localhost:8102", deliveries);
  } finally {
    provider.work.stop();
  }
}
