import { systemClock, type Clock } from "@authsim/sdk/runtime";
import { LATEST_CLOCK_MILLIS } from "@authsim/sdk/emulator";

/**
 * The emulator's clock: wall time by default, but tests and the control endpoints can advance it (to expire tokens,
 * codes and keys) or freeze it. Every decision in domain/ops/ reads time from here, never from Date.
 */
export interface ControllableClock extends Clock {
  advance(millis: number): void;
  freeze(atMillis?: number): void;
  unfreeze(): void;
  readonly frozen: boolean;
  /** Offset from the underlying clock, for snapshots. */
  state(): { offsetMillis: number; frozenAtMillis: number | null };
  restore(state: { offsetMillis: number; frozenAtMillis: number | null }): void;
  /**
   * Called after every move (advance, freeze, unfreeze, restore): the provider's timed work (emulator/timed-work/) runs
   * what became due then, so work due at an instant happens when the clock reaches it. Answers a function that stops it.
   */
  onMove(listener: () => void): () => void;
}

/**
 * The latest instant the clock may show: the end of year 9999. Tokens carry `exp` in seconds and the wire writes ISO
 * dates with four-digit years; past this, minted tokens and dates no longer parse (JavaScript's Date ends at 8.64e15).
 */
export { LATEST_CLOCK_MILLIS };

function checkedInstant(millis: number, what: string): number {
  if (!Number.isFinite(millis) || millis < 0 || millis > LATEST_CLOCK_MILLIS) {
    throw new RangeError(
      `${what} must be an instant between 1970 and the end of 9999 (0 to ${LATEST_CLOCK_MILLIS} ms), not ${millis}.`,
    );
  }
  return millis;
}

export function controllableClock(base: Clock = systemClock): ControllableClock {
  let offsetMillis = 0;
  let frozenAtMillis: number | null = null;
  const listeners = new Set<() => void>();
  const moved = () => {
    for (const listener of listeners) listener();
  };
  return {
    // Whole milliseconds, like Date.now(): every *_millis field on the wire is an integer.
    now: () => Math.floor(frozenAtMillis ?? base.now() + offsetMillis),
    advance(millis) {
      if (!Number.isFinite(millis) || millis < 0)
        throw new RangeError("The clock only moves forward by a finite amount.");
      const current = frozenAtMillis ?? base.now() + offsetMillis;
      checkedInstant(current + millis, "The advanced clock");
      if (frozenAtMillis !== null) frozenAtMillis += millis;
      else offsetMillis += millis;
      moved();
    },
    freeze(atMillis) {
      frozenAtMillis =
        atMillis === undefined
          ? (frozenAtMillis ?? base.now() + offsetMillis)
          : checkedInstant(atMillis, "The frozen instant");
      moved();
    },
    unfreeze() {
      if (frozenAtMillis !== null) offsetMillis = frozenAtMillis - base.now();
      frozenAtMillis = null;
      moved();
    },
    get frozen() {
      return frozenAtMillis !== null;
    },
    state: () => ({ offsetMillis, frozenAtMillis }),
    restore(s) {
      offsetMillis = s.offsetMillis;
      frozenAtMillis = s.frozenAtMillis;
      moved();
    },
    onMove(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
