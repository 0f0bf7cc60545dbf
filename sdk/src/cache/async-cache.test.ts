import { describe, expect, it } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { AsyncCache } from "./async-cache.ts";
import { manualTimers } from "./timers.ts";

function setup(load?: (key: string, n: number) => Promise<string>) {
  const timers = manualTimers(manualClock(5_000_000));
  const loads: string[] = [];
  const cache = new AsyncCache<string>(
    (key) => {
      loads.push(key);
      return load ? load(key, loads.length) : Promise.resolve(`${key}#${loads.length}`);
    },
    { clock: timers.clock, timers },
  );
  return { timers, loads, cache };
}

describe("AsyncCache snapshots", () => {
  it("starts a load on first read: pending, then ok with a stable snapshot", async () => {
    const { cache, timers, loads } = setup();
    const first = cache.snapshot("me");
    expect(first.status).toBe("pending");
    expect(cache.snapshot("me")).toBe(first);
    expect(await first.promise).toBe("me#1");
    const done = cache.snapshot("me");
    expect(done).toMatchObject({ status: "ok", value: "me#1" });
    expect(cache.snapshot("me")).toBe(done);
    await timers.advance(0);
    expect(loads).toEqual(["me"]);
  });

  it("keeps keys apart", async () => {
    const { cache } = setup();
    expect(await cache.get("a")).toBe("a#1");
    expect(await cache.get("b")).toBe("b#2");
    expect(await cache.get("a")).toBe("a#1");
  });

  it("puts a failed first load in the snapshot and rejects its promise", async () => {
    const { cache } = setup(async () => {
      throw new Error("offline");
    });
    await expect(cache.get("me")).rejects.toThrow("offline");
    const snap = cache.snapshot("me");
    expect(snap.status).toBe("error");
    expect(snap.status === "error" && (snap.error as Error).message).toBe("offline");
  });

  it("set replaces the value without a request and tells subscribers", async () => {
    const { cache, loads } = setup();
    let calls = 0;
    await cache.get("me");
    cache.subscribe("me", () => calls++);
    cache.set("me", "manual");
    expect(cache.snapshot("me")).toMatchObject({ status: "ok", value: "manual" });
    expect(calls).toBe(1);
    expect(loads).toHaveLength(1);
  });
});

describe("AsyncCache refresh", () => {
  it("keeps the old value visible while refreshing, then tells subscribers the new one", async () => {
    const { cache, timers } = setup();
    await cache.get("me");
    const seen: string[] = [];
    cache.subscribe("me", () => {
      const s = cache.snapshot("me");
      if (s.status === "ok") seen.push(s.value);
    });
    const refreshed = cache.refresh("me");
    expect(cache.snapshot("me")).toMatchObject({ status: "ok", value: "me#1" });
    await timers.advance(300);
    expect(await refreshed).toBe("me#2");
    expect(seen).toEqual(["me#2"]);
  });

  it("throttles refreshes to one start per 300 ms and coalesces a burst into one request", async () => {
    const { cache, timers, loads } = setup();
    await cache.get("me");
    await timers.advance(100);
    const burst = [cache.refresh("me"), cache.refresh("me"), cache.refresh("me")];
    await timers.advance(199);
    expect(loads).toHaveLength(1);
    await timers.advance(1);
    expect(loads).toHaveLength(2);
    expect(await Promise.all(burst)).toEqual(["me#2", "me#2", "me#2"]);
  });

  it("a failed refresh keeps the value and rejects", async () => {
    let fail = false;
    const { cache, timers } = setup(async (key, n) => {
      if (fail) throw new Error("flaky");
      return `${key}#${n}`;
    });
    await cache.get("me");
    fail = true;
    const r = cache.refresh("me");
    await timers.advance(300);
    await expect(r).rejects.toThrow("flaky");
    expect(cache.snapshot("me")).toMatchObject({ status: "ok", value: "me#1" });
  });

  it("refreshAll refreshes watched keys and forgets the others", async () => {
    const { cache, timers, loads } = setup();
    await cache.get("watched");
    await cache.get("idle");
    cache.subscribe("watched", () => {});
    cache.refreshAll();
    expect(cache.has("idle")).toBe(false);
    await timers.advance(300);
    expect(loads).toEqual(["watched", "idle", "watched"]);
    expect(cache.snapshot("watched")).toMatchObject({ status: "ok", value: "watched#3" });
  });

  it("invalidate with subscribers reloads at once and they see it pending", async () => {
    const { cache, timers } = setup();
    await cache.get("me");
    let calls = 0;
    const unsubscribe = cache.subscribe("me", () => calls++);
    cache.invalidate("me");
    expect(calls).toBe(1);
    const snap = cache.snapshot("me");
    expect(snap.status).toBe("pending");
    expect(await snap.promise).toBe("me#2");
    expect(calls).toBe(2);
    unsubscribe();
    await timers.advance(5_000);
    expect(cache.has("me")).toBe(false);
  });
});

describe("AsyncCache invalidation (spec §9: 5 s after the last subscriber leaves)", () => {
  it("drops an entry 5 s after its last subscriber leaves", async () => {
    const { cache, timers, loads } = setup();
    const a = cache.subscribe("me", () => {});
    const b = cache.subscribe("me", () => {});
    await cache.get("me");
    a();
    await timers.advance(10_000);
    expect(cache.has("me")).toBe(true);
    b();
    await timers.advance(4_999);
    expect(cache.has("me")).toBe(true);
    await timers.advance(1);
    expect(cache.has("me")).toBe(false);
    expect(await cache.get("me")).toBe("me#2");
    expect(loads).toEqual(["me", "me"]);
  });

  it("keeps the entry when a subscriber comes back within 5 s", async () => {
    const { cache, timers } = setup();
    cache.subscribe("me", () => {})();
    await timers.advance(4_000);
    const again = cache.subscribe("me", () => {});
    await timers.advance(60_000);
    expect(cache.has("me")).toBe(true);
    expect(await cache.get("me")).toBe("me#1");
    again();
  });

  it("drops an entry that was read but never subscribed to (a render that suspended and was discarded)", async () => {
    const { cache, timers } = setup();
    await cache.get("me");
    await timers.advance(5_000);
    expect(cache.has("me")).toBe(false);
  });

  it("unsubscribing twice is harmless", async () => {
    const { cache, timers } = setup();
    const keep = cache.subscribe("me", () => {});
    const drop = cache.subscribe("me", () => {});
    drop();
    drop();
    await timers.advance(6_000);
    expect(cache.has("me")).toBe(true);
    keep();
  });
});
