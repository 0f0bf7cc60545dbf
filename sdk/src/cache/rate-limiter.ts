import type { Clock } from "../runtime/clock.ts";
import type { Timers } from "./timers.ts";

/**
 * The cache's refresh limiter (spec §9: "rate limiter concurrency 1, throttle 300 ms"): at most `concurrency` runs at
 * once, starts at least `throttleMillis` apart, and callers that ask while a run is still waiting to start share that
 * run's result. So a burst of refreshes (say, after several mutations) costs one request, and a refresh asked for
 * while one is in flight still gets a run that starts after it, never the possibly stale answer in flight.
 */
export interface RateLimiterOptions {
  concurrency: number;
  throttleMillis: number;
  clock: Clock;
  timers: Timers;
}

export interface RateLimiter<T> {
  /** The result of the next run that starts after this call. */
  run(): Promise<T>;
  /** Runs in flight. */
  running(): number;
}

interface Waiter<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function createRateLimiter<T>(task: () => Promise<T>, options: RateLimiterOptions): RateLimiter<T> {
  if (options.concurrency < 1) throw new RangeError("A rate limiter needs a concurrency of at least 1.");
  let inFlight = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  /** Callers of the run that has not started yet: they all get its result. */
  let queued: Waiter<T>[] | null = null;
  let timerSet = false;

  function schedule(): void {
    if (!queued || timerSet || inFlight >= options.concurrency) return;
    const wait = lastStart + options.throttleMillis - options.clock.now();
    if (wait > 0) {
      timerSet = true;
      options.timers.setTimeout(() => {
        timerSet = false;
        schedule();
      }, wait);
      return;
    }
    const waiters = queued;
    queued = null;
    inFlight++;
    lastStart = options.clock.now();
    const land = () => {
      inFlight--;
      schedule();
    };
    // A task that throws synchronously still settles its waiters.
    Promise.resolve()
      .then(task)
      .then(
        (value) => {
          land();
          for (const w of waiters) w.resolve(value);
        },
        (error: unknown) => {
          land();
          for (const w of waiters) w.reject(error);
        },
      );
  }

  return {
    run() {
      return new Promise<T>((resolve, reject) => {
        (queued ??= []).push({ resolve, reject });
        schedule();
      });
    },
    running: () => inFlight,
  };
}
