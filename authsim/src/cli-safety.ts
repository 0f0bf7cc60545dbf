import { liveStateReason, type StateFound } from "@authsim/fake-provider/dev-server";

/**
 * The dev server fails closed: it refuses, with the reason, to start where it could be mistaken for (or reached as) a
 * real provider. Its keys are published in fixtures/ and its control endpoints need no authentication.
 */
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

export function startupRefusal(options: { host: string; allowNetwork: boolean }): string | null {
  if (!LOOPBACK.test(options.host) && !options.allowNetwork) {
    return (
      `Refusing to listen on ${options.host}: the emulator's keys are public and its /__emulator controls are open, ` +
      "so it binds to loopback only. Pass --allow-network as well if you really mean to expose it (e.g. inside a container)."
    );
  }
  return null;
}

// The rule itself is pure and shared with the control endpoints (safety/live-keys.ts); the CLI only words it.
export {
  fixtureState,
  isRealServiceHost,
  looksLikeLiveKey,
  storeState,
  type Found,
  type StateFound,
} from "@authsim/fake-provider/dev-server";

/** The reason to refuse the keys and domains a file brings (`source` names it: "the fixture F", "the snapshot F"), or null. */
export function stateRefusal(source: string, found: StateFound): string | null {
  return liveStateReason(`Refusing to start: ${source} looks like a real project's.`, "the file", found);
}
