import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createFakeProvider, type FakeProvider } from "@authsim/fake-provider";

/** The fake provider over a loopback port, as `npm start` serves it (a Node-only test harness). */
export interface ServedProvider {
  provider: FakeProvider;
  baseUrl: string;
  close(): Promise<void>;
}

export async function serveProvider(): Promise<ServedProvider> {
  const provider = createFakeProvider({ onUnexpectedError: (e) => console.error(e) });
  const server = serve({ fetch: provider.app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  // Token issuers name the address the provider is really reachable at.
  provider.settings.apiBaseUrl = baseUrl;
  return {
    provider,
    baseUrl,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
