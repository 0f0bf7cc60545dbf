import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { createFakeProvider, type FakeProvider, type FakeProviderOptions } from "@authsim/fake-provider";

/** A fake provider over a real port on loopback, with a log of what reached it (Node-only test harness). */
export interface ServedProvider {
  provider: FakeProvider;
  baseUrl: string;
  requests: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

export async function serveFakeProvider(options: FakeProviderOptions = {}): Promise<ServedProvider> {
  const provider = createFakeProvider({ onUnexpectedError: (e) => console.error(e), ...options });
  const requests: ServedProvider["requests"] = [];
  const fetch = async (request: Request) => {
    const response = await provider.app.fetch(request);
    requests.push({ method: request.method, path: new URL(request.url).pathname, status: response.status });
    return response;
  };
  const server = serve({ fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  // Token issuers name the address the provider is really reachable at.
  provider.settings.apiBaseUrl = baseUrl;
  return {
    provider,
    baseUrl,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
