import { devProjectSeed } from "@authsim/fixtures";
import { createFakeProvider, type FakeProvider, type FakeProviderOptions } from "@authsim/fake-provider";
import { controlClient, type ControlClient } from "@authsim/sdk/emulator";
import type { ManualClock } from "@authsim/sdk/runtime";
import { manualClock } from "@authsim/sdk/runtime";
import { emulatorClock, type SharedClock } from "./emulator-clock.ts";

export type { SharedClock } from "./emulator-clock.ts";

/**
 * What a conformance suite runs against: the in-process fake (default), a running fake by URL, or any provider by URL
 * with keys (the real service included). Cases that need emulator controls skip on targets without them, each with a
 * written reason.
 */
export interface Controls {
  /** Moves the provider's clock forward (tokens, codes and keys expire by it); the SDK's clock stays where it is. */
  advanceClock(millis: number): Promise<void>;
  reset(): Promise<void>;
  /** A clock for the SDK that reads the provider's time now and moves with it (emulator-clock.ts). */
  sharedClock(): Promise<SharedClock>;
}

export interface Target {
  name: string;
  baseUrl: string;
  fetch: typeof fetch;
  projectId: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
  /** Null when the target is not an authsim fake (e.g. the real service). */
  controls: Controls | null;
}

/** The control plane (/__emulator) of a fake target, through the control contract's client, with the target's fetch. */
export const controlOf = (target: Pick<Target, "baseUrl" | "fetch">): ControlClient =>
  controlClient({ baseUrl: target.baseUrl, fetch: target.fetch });

export const NO_CONTROLS_REASON =
  "needs the emulator's control endpoints (clock, reset), which this target does not have";

export interface InProcessTarget extends Target {
  provider: FakeProvider;
  /** The clock the provider was built on: tests may move it directly. */
  clock: ManualClock;
}

/** The fake provider in this process: requests go to `app.fetch`, no port is opened. */
export function inProcessTarget(options: FakeProviderOptions = {}): InProcessTarget {
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const provider = createFakeProvider({ clock, onUnexpectedError: (e) => console.error(e), ...options });
  const baseUrl = "http://authsim.in-process";
  provider.settings.apiBaseUrl = baseUrl;
  return {
    name: "in-process fake",
    baseUrl,
    fetch: provider.fetch as typeof fetch,
    projectId: devProjectSeed.id,
    publishableClientKey: devProjectSeed.keys.publishable_client_key,
    secretServerKey: devProjectSeed.keys.secret_server_key,
    superSecretAdminKey: devProjectSeed.keys.super_secret_admin_key,
    controls: {
      advanceClock: async (millis) => provider.clock.advance(millis),
      reset: async () => provider.reset(),
      // The manual clock under the provider: moving it moves both (provider.clock only adds its own offset on top).
      sharedClock: async () => ({ now: () => clock.now(), advance: async (millis) => clock.advance(millis) }),
    },
    provider,
    clock,
  };
}

/**
 * A provider reached over HTTP. `hasControls` says it is an authsim fake whose /__emulator endpoints may be used.
 * Keys default to the dev project's fixed ones (right for `npm start`).
 */
export function urlTarget(options: {
  baseUrl: string;
  projectId?: string;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
  hasControls: boolean;
}): Target {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const control = controlClient({ baseUrl });
  return {
    name: options.hasControls ? `fake at ${baseUrl}` : `provider at ${baseUrl}`,
    baseUrl,
    fetch: (input, init) => fetch(input, init),
    projectId: options.projectId ?? devProjectSeed.id,
    publishableClientKey: options.publishableClientKey ?? devProjectSeed.keys.publishable_client_key,
    secretServerKey: options.secretServerKey ?? devProjectSeed.keys.secret_server_key,
    superSecretAdminKey: options.superSecretAdminKey ?? devProjectSeed.keys.super_secret_admin_key,
    controls: options.hasControls
      ? {
          advanceClock: async (millis) => void (await control.call("advanceClock", { body: { millis } })),
          reset: async () => void (await control.call("reset")),
          sharedClock: () => emulatorClock(baseUrl),
        }
      : null,
  };
}

/**
 * The target named by the environment: AUTHSIM_TARGET_URL (plus AUTHSIM_PROJECT_ID and the three AUTHSIM_*_KEY
 * variables, and AUTHSIM_TARGET_IS_FAKE=false for a real service); none means the in-process fake.
 */
export function targetFromEnv(env: Record<string, string | undefined> = process.env): Target {
  const baseUrl = env.AUTHSIM_TARGET_URL;
  if (!baseUrl) return inProcessTarget();
  return urlTarget({
    baseUrl,
    ...(env.AUTHSIM_PROJECT_ID ? { projectId: env.AUTHSIM_PROJECT_ID } : {}),
    ...(env.AUTHSIM_PUBLISHABLE_CLIENT_KEY ? { publishableClientKey: env.AUTHSIM_PUBLISHABLE_CLIENT_KEY } : {}),
    ...(env.AUTHSIM_SECRET_SERVER_KEY ? { secretServerKey: env.AUTHSIM_SECRET_SERVER_KEY } : {}),
    ...(env.AUTHSIM_SUPER_SECRET_ADMIN_KEY ? { superSecretAdminKey: env.AUTHSIM_SUPER_SECRET_ADMIN_KEY } : {}),
    hasControls: env.AUTHSIM_TARGET_IS_FAKE !== "false",
  });
}
