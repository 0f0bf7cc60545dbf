/**
 * Time, injected everywhere (design rule 5). This module and ids.ts are the only places that read ambient time or
 * randomness.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to: for tests that expire tokens, codes and keys. */
export interface ManualClock extends Clock {
  set(millis: number): void;
  advance(millis: number): void;
}

export function manualClock(startMillis: number): ManualClock {
  let now = startMillis;
  return {
    now: () => now,
    set: (millis) => {
      now = millis;
    },
    advance: (millis) => {
      now += millis;
    },
  };
}

/** Waiting, injected with the clock so retry delays can be observed without real time passing. */
export type Sleep = (millis: number) => Promise<void>;
export const realSleep: Sleep = (millis) => new Promise((resolve) => setTimeout(resolve, millis));
