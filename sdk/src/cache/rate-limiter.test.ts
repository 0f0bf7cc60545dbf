import { describe, expect, it } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { createRateLimiter } from "./rate-limiter.ts";
import { manualTimers } from "./timers.ts";

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

function setup() {
  const timers = manualTimers(manualClock(1_000_000));
  const starts: number[] = [];
  const flights: ReturnType<typeof deferred<number>>[] = [];
  const limiter = createRateLimiter(
    () => {
      starts.push(timers.clock.now());
      const d = deferred<number>();
      flights.push(d);
      return d.promise;
    },
    { concurrency: 1, throttleMillis: 300, clock: timers.clock, timers },
  );
  return { timers, starts, flights, limiter };
}

describe("the cache's rate limiter (spec §9: concurrency 1, throttle 300 ms)", () => {
  it("starts the first run at once", async () => {
    const { limiter, starts, flights, timers } = setup();
    const result = limiter.run();
    await timers.advance(0);
    expect(starts).toEqual([1_000_000]);
    flights[0]!.resolve(7);
    expect(await result).toBe(7);
  });

  it("never runs two at once: a call during a run waits for it to land", async () => {
    const { limiter, starts, flights, timers } = setup();
    void limiter.run();
    await timers.advance(0);
    const second = limiter.run();
    await timers.advance(1_000);
    expect(starts).toHaveLength(1);
    expect(limiter.running()).toBe(1);
    flights[0]!.resolve(1);
    await timers.advance(0);
    expect(starts).toEqual([1_000_000, 1_001_000]);
    flights[1]!.resolve(2);
    expect(await second).toBe(2);
  });

  it("starts runs at least 300 ms apart", async () => {
    const { limiter, starts, flights, timers } = setup();
    void limiter.run();
    await timers.advance(0);
    flights[0]!.resolve(1);
    await timers.advance(10);
    const next = limiter.run();
    await timers.advance(0);
    expect(starts).toHaveLength(1);
    await timers.advance(289);
    expect(starts).toHaveLength(1);
    await timers.advance(1);
    expect(starts).toEqual([1_000_000, 1_000_300]);
    flights[1]!.resolve(2);
    expect(await next).toBe(2);
  });

  it("gives every caller that waits for the same start one shared run", async () => {
    const { limiter, starts, flights, timers } = setup();
    void limiter.run();
    await timers.advance(0);
    const waiting = [limiter.run(), limiter.run(), limiter.run()];
    flights[0]!.resolve(1);
    await timers.advance(300);
    expect(starts).toHaveLength(2);
    flights[1]!.resolve(42);
    expect(await Promise.all(waiting)).toEqual([42, 42, 42]);
  });

  it("rejects every waiter of a failed run and goes on with the next", async () => {
    const { limiter, flights, timers } = setup();
    void limiter.run();
    await timers.advance(0);
    const a = limiter.run();
    const b = limiter.run();
    flights[0]!.resolve(0);
    await timers.advance(300);
    flights[1]!.reject(new Error("boom"));
    await expect(a).rejects.toThrow("boom");
    await expect(b).rejects.toThrow("boom");
    const c = limiter.run();
    await timers.advance(300);
    flights[2]!.resolve(3);
    expect(await c).toBe(3);
  });

  it("refuses a concurrency below 1", () => {
    const timers = manualTimers(manualClock(0));
    expect(() =>
      createRateLimiter(async () => 1, { concurrency: 0, throttleMillis: 0, clock: timers.clock, timers }),
    ).toThrow(RangeError);
  });
});
