import { systemClock, type Clock } from "@authsim/sdk/runtime";

/**
 * The emulator's clock: wall time by default, but tests and the control endpoints can advance it (to expire tokens,
 * codes and keys) or freeze it. Every decision in ops/ reads time from here, never from Date.
 */
export interface ControllableClock extends Clock {
  advance(millis: number): void;
  freeze(atMillis?: number): void;
  unfreeze(): void;
  readonly frozen: boolean;
  /** Offset from the underlying clock, for snapshots. */
  state(): { offsetMillis: number; frozenAtMillis: number | null };
  restore(state: { offsetMillis: number; frozenAtMillis: number | null }): void;
}

export function controllableClock(base: Clock = systemClock): ControllableClock {
  let offsetMillis = 0;
  let frozenAtMillis: number | null = null;
  return {
    // Whole milliseconds, like Date.now(): every *_millis field on the wire is an integer.
    now: () => Math.floor(frozenAtMillis ?? base.now() + offsetMillis),
    advance(millis) {
      if (!Number.isFinite(millis) || millis < 0) throw new RangeError("The clock only moves forward by a finite amount.");
      if (frozenAtMillis !== null) frozenAtMillis += millis;
      else offsetMillis += millis;
    },
    freeze(atMillis) {
      frozenAtMillis = atMillis ?? frozenAtMillis ?? base.now() + offsetMillis;
    },
    unfreeze() {
      if (frozenAtMillis !== null) offsetMillis = frozenAtMillis - base.now();
      frozenAtMillis = null;
    },
    get frozen() {
      return frozenAtMillis !== null;
    },
    state: () => ({ offsetMillis, frozenAtMillis }),
    restore(s) {
      offsetMillis = s.offsetMillis;
      frozenAtMillis = s.frozenAtMillis;
    },
  };
}
