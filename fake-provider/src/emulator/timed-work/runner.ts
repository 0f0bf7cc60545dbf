import type { ControllableClock } from "../../clock.ts";

/**
 * The one rule for the provider's time-based work (docs/emulator.md, "Timed work"): the email queue, webhook deliveries
 * and their retries, and whatever else waits for an instant.
 *
 * - Work the real service does right away (a queue its workers drain continuously) is due at the instant it was queued:
 *   it runs without emulator time passing, also with the clock frozen, in a fixed order (each worker takes its items
 *   oldest first, one worker after the other).
 * - Work due at a later instant (a retry after backoff, a grace a worker waits) runs once the clock reaches it: when
 *   the clock is advanced (its `onMove`), or, while it runs, on a real timer set for that instant.
 *
 * Each worker says when its next item is due and runs a step over what is due; the runner starts a worker's steps after
 * every request and clock move, keeps one run per worker at a time, and lets requests wait for the workers that hold
 * them (the email queue renders before the next request reads; webhook deliveries wait on other machines' HTTP, so
 * requests never wait for them).
 */

/** What waits, for views: a worker's items grouped by the instant they are due. */
export interface PendingWork {
  /** The worker, e.g. "email-queue", "webhook-delivery". */
  kind: string;
  /** e.g. "email", "webhook attempt". */
  what: string;
  count: number;
  /** Emulator time (ms): right-away work shows the instant it was queued. */
  dueAtMillis: number;
}

export interface TimedWorker {
  readonly kind: string;
  /** Requests wait for a running step of this worker before their own work (its results must be read by the next request). */
  readonly holdsRequests: boolean;
  /** The instant (emulator ms) its earliest item is due, or null when nothing waits. A read without the store's lock. */
  nextDueAt(): number | null;
  /** Runs what is due now; answers how many items it handled (0 ends the run even if something still looks due). */
  step(): Promise<number>;
  pending(): PendingWork[];
}

export interface TimedWork {
  /** Starts the steps of every worker with something due (what requests and clock moves call); does not wait. */
  kick(): void;
  /** Runs everything due now, and what becomes due while it runs at the same instant, then answers. */
  runDue(): Promise<void>;
  /** Waits until no worker is running (items due later stay pending). */
  idle(): Promise<void>;
  /**
   * Kicks, then waits for the running steps of the workers that hold requests, before a request's own work, but at most
   * QUEUE_STEP_WAIT_MILLIS: a warm render of a small email finishes within it, and an email whose code loops until its
   * deadline holds no request up (issue 31). A client reading just after the grace may still see an entry "preparing",
   * as with the real service's queue worker, and polls as it would there.
   */
  beforeRequest(): Promise<void>;
  pending(): PendingWork[];
  /** Stops the timer (a provider that is dropped). Kicks re-arm it. */
  stop(): void;
}

/** How long a request waits for a running step of a worker that holds requests (the email queue's). */
export const QUEUE_STEP_WAIT_MILLIS = 20;

/** Real timers longer than this are re-armed: setTimeout's limit is 2^31 ms, and a retry may be ten hours away. */
const LONGEST_TIMER_MILLIS = 60_000;

export function createTimedWork(
  clock: ControllableClock,
  workers: readonly TimedWorker[],
  onError: (error: unknown) => void,
): TimedWork {
  const running = new Map<TimedWorker, Promise<void>>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let timerAt: number | null = null;

  const isDue = (w: TimedWorker) => {
    const at = w.nextDueAt();
    return at !== null && at <= clock.now();
  };

  const start = (w: TimedWorker): Promise<void> => {
    const current = running.get(w);
    if (current) return current;
    if (!isDue(w)) return Promise.resolve();
    const run = (async () => {
      try {
        while (isDue(w)) if ((await w.step()) === 0) break;
      } catch (error) {
        onError(error);
      } finally {
        running.delete(w);
        arm();
      }
    })();
    running.set(w, run);
    return run;
  };

  /** A real timer for the earliest item due later, while the clock runs (a frozen clock only moves by advancing). */
  const arm = () => {
    let next: number | null = null;
    if (!clock.frozen) {
      for (const w of workers) {
        const at = w.nextDueAt();
        if (at !== null && (next === null || at < next)) next = at;
      }
    }
    if (next === timerAt && (timer !== null || next === null)) return;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    timerAt = next;
    if (next === null) return;
    timer = setTimeout(
      () => {
        timer = null;
        timerAt = null;
        kick();
      },
      Math.min(Math.max(next - clock.now(), 0), LONGEST_TIMER_MILLIS),
    );
    // Pending work must not keep a process (a test run, a CLI being stopped) alive.
    (timer as { unref?: () => void }).unref?.();
  };

  const kick = () => {
    for (const w of workers) void start(w);
    arm();
  };

  const runDue = async () => {
    for (;;) {
      const runs = workers.map(start);
      await Promise.all(runs);
      // Done unless a kick started another run meanwhile. An item still due after a step that handled nothing (it
      // changed under the step) is left to the next kick rather than spun on.
      if (running.size === 0) return;
    }
  };

  return {
    kick,
    runDue,
    async idle() {
      while (running.size > 0) await Promise.all(running.values());
    },
    async beforeRequest() {
      kick();
      const runs = workers.flatMap((w) => (w.holdsRequests && running.has(w) ? [running.get(w)!] : []));
      if (runs.length === 0) return;
      let timeout: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(runs),
        new Promise<void>((resolve) => (timeout = setTimeout(resolve, QUEUE_STEP_WAIT_MILLIS))),
      ]);
      clearTimeout(timeout);
    },
    pending: () =>
      workers.flatMap((w) => w.pending()).sort((a, b) => a.dueAtMillis - b.dueAtMillis || a.kind.localeCompare(b.kind)),
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      timerAt = null;
    },
  };
}
