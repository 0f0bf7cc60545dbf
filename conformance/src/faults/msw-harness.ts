import { http, passthrough, type HttpHandler } from "msw";
import { setupServer } from "msw/node";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { createFakeProvider, type FakeProvider } from "@authsim/fake-provider";
import { StackClientApp, StackServerApp } from "@authsim/sdk";
import { manualClock, seededRandom, type ManualClock } from "@authsim/sdk/runtime";

/**
 * msw between our SDK and the in-process fake: every request to BASE_URL reaches the fake unless a test `use()`s a
 * fault handler first (msw-style: `once`, or until reset). The SDK's sleeps are recorded and advance a manual clock
 * instead of waiting, so retry counts and delays are observed exactly.
 */
export const BASE_URL = "http://authsim.msw.test";

export interface FaultHarness {
  provider: FakeProvider;
  clock: ManualClock;
  /** Every delay the SDK slept, in order. */
  sleeps: number[];
  /** Every request msw saw, faulted or not. */
  seen: { method: string; path: string }[];
  online: { value: boolean };
  use(...handlers: HttpHandler[]): void;
  client(): StackClientApp;
  server(): StackServerApp;
}

export function createFaultHarness(): FaultHarness & { listen(): void; reset(): void; close(): void } {
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const provider = createFakeProvider({ clock, apiBaseUrl: BASE_URL, onUnexpectedError: (e) => console.error(e) });
  const sleeps: number[] = [];
  const seen: FaultHarness["seen"] = [];
  const online = { value: true };
  const toFake = http.all(`${BASE_URL}/*`, async ({ request }) => provider.app.fetch(request));
  const server = setupServer(
    toFake,
    http.all("*", () => passthrough()),
  );
  server.events.on("request:start", ({ request }) => {
    const url = new URL(request.url);
    if (url.origin === BASE_URL) seen.push({ method: request.method, path: url.pathname });
  });
  const platform = {
    baseUrl: BASE_URL,
    projectId: dev.id,
    publishableClientKey: dev.keys.publishable_client_key,
    clock,
    random: seededRandom("faults"),
    isOnline: () => online.value,
    sleep: async (millis: number) => {
      sleeps.push(millis);
      clock.advance(millis);
    },
  };
  return {
    provider,
    clock,
    sleeps,
    seen,
    online,
    use: (...handlers) => server.use(...handlers),
    client: () => new StackClientApp({ ...platform, tokenStore: "memory" }),
    server: () =>
      new StackServerApp({ ...platform, tokenStore: "memory", secretServerKey: dev.keys.secret_server_key }),
    listen: () => server.listen({ onUnhandledRequest: "error" }),
    reset: () => {
      server.resetHandlers();
      sleeps.length = 0;
      seen.length = 0;
      online.value = true;
      provider.reset();
    },
    close: () => server.close(),
  };
}
