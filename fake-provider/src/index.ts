export { createFakeProvider, type FakeProvider, type FakeProviderOptions, type ProviderSnapshot } from "./app.ts";
export { controllableClock, type ControllableClock } from "./clock.ts";
export { CONTROL_PREFIX } from "./control/routes.ts";
export { defaultSeed, type ProviderSeed } from "./seed.ts";
export { hashCosts, type HashCost } from "./auth/passwords.ts";
export { OutboxTimeoutError, type Outbox, type OutboxFilter } from "./outbox/outbox.ts";
export type { SentEmailRecord } from "./store/records.ts";
