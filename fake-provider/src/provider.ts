import type { Hono } from "hono";
import type { RandomSource } from "@authsim/sdk/runtime";
import type { ControllableClock } from "./clock.ts";
import type { Faults } from "./emulator/faults/faults.ts";
import type { OfflineModelControl } from "./emulator/ai-model/offline-model-control.ts";
import type { ProviderSettings } from "./domain/ops/context.ts";
import type { Outbox } from "./emulator/outbox/outbox.ts";
import type { RequestLog } from "./emulator/request-log/request-log.ts";
import type { Store, StoreSnapshot } from "./domain/store/store.ts";
import type { TimedWork } from "./emulator/timed-work/runner.ts";
import type { Webhooks } from "./emulator/webhooks/webhooks.ts";

// What createFakeProvider (app.ts) returns. Its own module, below app.ts, so the control plane that app.ts mounts can
// name the provider without importing app.ts.

export interface ProviderSnapshot {
  store: StoreSnapshot;
  clock: ReturnType<ControllableClock["state"]>;
}

export interface FakeProvider {
  /** The Hono app: `app.request()` in process, or serve it over a port (see cli.ts). */
  app: Hono;
  /** A fetch-compatible function that answers in process: hand it to an SDK as its `fetch`. */
  fetch: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  clock: ControllableClock;
  store: Store;
  /** Every email the provider sent: list, filter, wait for the next one, clear. */
  outbox: Outbox;
  /** Fault rules (status, known error, latency, dropped connection) applied before the routes. Cleared by reset. */
  faults: Faults;
  /** The offline model's scripted answers (texts, failures) for the AI routes (emulator/ai-model/). Emptied by reset. */
  ai: OfflineModelControl;
  /** The last /api/v1 requests with status, known error and why (emulator/request-log/). Cleared by reset. */
  requestLog: RequestLog;
  /**
   * The provider's time-based work (the email queue, webhook deliveries and retries): what waits and when, run what is
   * due now, wait until idle (emulator/timed-work/runner.ts; docs/emulator.md, "Timed work").
   */
  work: TimedWork;
  /** Webhooks: endpoints, messages and delivery attempts per project; add an endpoint, resend, wait for an attempt. */
  webhooks: Webhooks;
  settings: ProviderSettings;
  /** The provider's one random source (ids of what emulator-only pages create, e.g. the checkout page's purchases). */
  random: RandomSource;
  snapshot(): ProviderSnapshot;
  restore(snapshot: ProviderSnapshot): void;
  /** Back to the seeded state (and the clock back to its base). */
  reset(): void;
  /**
   * An independent provider holding a copy of this one's state (store and clock offset): changes to either are not
   * seen by the other. It shares the base clock and the random source; its fault rules and request log start empty.
   */
  fork(): FakeProvider;
}
