import { constants } from "../contract/headers.ts";
import type { Clock } from "../runtime/clock.ts";
import { createRateLimiter, type RateLimiter } from "./rate-limiter.ts";
import type { TimerHandle, Timers } from "./timers.ts";

/**
 * A keyed async cache with the rules of spec §9: each key refreshes through its own rate limiter (concurrency 1,
 * throttle 300 ms), and an entry is dropped 5 s after its last subscriber leaves, so the next read loads it again.
 * Snapshots are immutable and keep their identity until the value changes, which is what React's
 * useSyncExternalStore needs; the first load's promise is there for Suspense.
 */
export type CacheSnapshot<V> =
  | { readonly status: "pending"; readonly promise: Promise<V> }
  | { readonly status: "ok"; readonly value: V; readonly promise: Promise<V> }
  | { readonly status: "error"; readonly error: unknown; readonly promise: Promise<V> };

export interface AsyncCacheOptions {
  clock: Clock;
  timers: Timers;
  concurrency?: number;
  throttleMillis?: number;
  invalidateAfterMillis?: number;
}

interface Entry<V> {
  snapshot: CacheSnapshot<V>;
  readonly listeners: Set<() => void>;
  readonly limiter: RateLimiter<V>;
  invalidateTimer: TimerHandle | null;
}

/** A rejected promise that nobody awaits must not become an unhandled rejection: the snapshot carries the error. */
function quiet<V>(promise: Promise<V>): Promise<V> {
  promise.catch(() => {});
  return promise;
}

export class AsyncCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly concurrency: number;
  private readonly throttleMillis: number;
  private readonly invalidateAfterMillis: number;

  constructor(
    private readonly load: (key: string) => Promise<V>,
    private readonly options: AsyncCacheOptions,
  ) {
    this.concurrency = options.concurrency ?? constants.cacheRateLimiterConcurrency;
    this.throttleMillis = options.throttleMillis ?? constants.cacheThrottleMillis;
    this.invalidateAfterMillis = options.invalidateAfterMillis ?? constants.cacheInvalidateAfterLastSubscriberMillis;
  }

  /** The key's current snapshot; reading a key the cache does not hold starts its first load. */
  snapshot(key: string): CacheSnapshot<V> {
    return this.entry(key).snapshot;
  }

  /** The key's value: the cached one, else the first load's result. */
  get(key: string): Promise<V> {
    const snap = this.snapshot(key);
    return snap.status === "ok" ? Promise.resolve(snap.value) : snap.promise;
  }

  /** Calls `listener` whenever the key's snapshot changes; while anyone listens, the entry is kept. */
  subscribe(key: string, listener: () => void): () => void {
    const entry = this.entry(key);
    entry.listeners.add(listener);
    this.cancelInvalidation(entry);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // The key may have been invalidated and reloaded meanwhile: the listener lives on the current entry.
      const current = this.entries.get(key);
      if (!current) return;
      current.listeners.delete(listener);
      if (current.listeners.size === 0) this.scheduleInvalidation(key, current);
    };
  }

  /**
   * Loads the key again through its rate limiter. The old value stays visible meanwhile; a failed refresh keeps it and
   * rejects the returned promise (only a failed first load puts an error in the snapshot).
   */
  refresh(key: string): Promise<V> {
    const existing = this.entries.get(key);
    if (!existing) return this.get(key);
    return existing.limiter.run().then((value) => {
      if (this.entries.get(key) === existing)
        this.update(existing, { status: "ok", value, promise: Promise.resolve(value) });
      return value;
    });
  }

  /** Something changed on the server: refresh what is watched, and forget the rest (it loads again when read). */
  refreshAll(): void {
    for (const [key, entry] of [...this.entries]) {
      if (entry.listeners.size > 0) void quiet(this.refresh(key));
      else this.invalidate(key);
    }
  }

  /** Replaces the value (e.g. after a call that returned it), without a request. */
  set(key: string, value: V): void {
    this.update(this.entry(key, false), { status: "ok", value, promise: Promise.resolve(value) });
  }

  /** Drops the key's value now; with subscribers it loads again at once (they see it pending), else on the next read. */
  invalidate(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.cancelInvalidation(entry);
    this.entries.delete(key);
    if (entry.listeners.size === 0) return;
    const fresh = this.entry(key, true, entry.listeners);
    this.cancelInvalidation(fresh);
    for (const listener of [...fresh.listeners]) listener();
  }

  /** Whether the key is held (loaded, loading or failed). */
  has(key: string): boolean {
    return this.entries.has(key);
  }

  private entry(key: string, startLoad = true, listeners = new Set<() => void>()): Entry<V> {
    const existing = this.entries.get(key);
    if (existing) return existing;
    const entry: Entry<V> = {
      snapshot: { status: "pending", promise: new Promise<V>(() => {}) },
      listeners,
      limiter: createRateLimiter(() => this.load(key), {
        concurrency: this.concurrency,
        throttleMillis: this.throttleMillis,
        clock: this.options.clock,
        timers: this.options.timers,
      }),
      invalidateTimer: null,
    };
    this.entries.set(key, entry);
    if (startLoad) {
      const promise = quiet(
        entry.limiter.run().then(
          (value) => {
            if (this.entries.get(key) === entry && entry.snapshot.status === "pending") {
              this.update(entry, { status: "ok", value, promise });
            }
            return value;
          },
          (error: unknown) => {
            if (this.entries.get(key) === entry && entry.snapshot.status === "pending") {
              this.update(entry, { status: "error", error, promise });
            }
            throw error;
          },
        ),
      );
      entry.snapshot = { status: "pending", promise };
    }
    // An entry read but never subscribed to (a render that suspended and was thrown away) must not live forever.
    this.scheduleInvalidation(key, entry);
    return entry;
  }

  private update(entry: Entry<V>, snapshot: CacheSnapshot<V>): void {
    entry.snapshot = snapshot;
    for (const listener of [...entry.listeners]) listener();
  }

  private scheduleInvalidation(key: string, entry: Entry<V>): void {
    this.cancelInvalidation(entry);
    entry.invalidateTimer = this.options.timers.setTimeout(() => {
      entry.invalidateTimer = null;
      if (entry.listeners.size === 0 && this.entries.get(key) === entry) this.entries.delete(key);
    }, this.invalidateAfterMillis);
  }

  private cancelInvalidation(entry: Entry<V>): void {
    if (entry.invalidateTimer !== null) {
      this.options.timers.clearTimeout(entry.invalidateTimer);
      entry.invalidateTimer = null;
    }
  }
}
