import type { ManualClock } from "../runtime/clock.ts";

/**
 * Timers, injected like the clock (design rule 5): the cache's throttle, its invalidation delay and the token poll of
 * spec §9 all wait through this, so tests move time by hand instead of patching globals.
 */
/** Opaque: whatever the platform's setTimeout returns (a number in browsers, an object in Node). */
export type TimerHandle = unknown;

export interface Timers {
  setTimeout(callback: () => void, millis: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, millis) => setTimeout(callback, millis),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
};

/** Timers over a manual clock: nothing fires until `advance` moves the clock past a timer's due time. */
export interface ManualTimers extends Timers {
  readonly clock: ManualClock;
  /** Moves the clock forward, firing due timers in order (each one sees the clock at its due time). */
  advance(millis: number): Promise<void>;
  /** How many timers are waiting. */
  pending(): number;
}

export function manualTimers(clock: ManualClock): ManualTimers {
  let nextId = 1;
  const waiting = new Map<number, { due: number; callback: () => void }>();
  // Lets promise callbacks scheduled by a fired timer run before the next one fires, as with real timers.
  const settle = async () => {
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return {
    clock,
    setTimeout(callback, millis) {
      const id = nextId++;
      waiting.set(id, { due: clock.now() + Math.max(0, millis), callback });
      return { id };
    },
    clearTimeout(handle) {
      if (typeof handle === "object" && handle !== null && "id" in handle && typeof handle.id === "number")
        waiting.delete(handle.id);
    },
    async advance(millis) {
      const target = clock.now() + millis;
      await settle();
      for (;;) {
        let next: [number, { due: number; callback: () => void }] | undefined;
        for (const entry of waiting) if (entry[1].due <= target && (!next || entry[1].due < next[1].due)) next = entry;
        if (!next) break;
        waiting.delete(next[0]);
        clock.set(Math.max(clock.now(), next[1].due));
        next[1].callback();
        await settle();
      }
      clock.set(target);
    },
    pending: () => waiting.size,
  };
}
