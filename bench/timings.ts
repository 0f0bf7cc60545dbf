/**
 * How long the in-process lifecycle takes (createFakeProvider, fork, snapshot + restore of a provider holding 1,000
 * users) and the dev server's cold start (median of 5).
 */
import { performance } from "node:perf_hooks";
import { createFakeProvider } from "@authsim/fake-provider";
import { serverHeaders } from "./scenarios.ts";
import { startDevServer } from "./server.ts";

function perCall(n: number, f: () => void): number {
  f(); // the first call pays for module-level work; measure the steady state
  const t = performance.now();
  for (let i = 0; i < n; i++) f();
  return (performance.now() - t) / n;
}

export interface LifecycleTimes {
  create: number;
  forkEmpty: number;
  reset: number;
  users: number;
  fork: number;
  snapshot: number;
  restore: number;
}

export async function lifecycleTimes(users = 1000): Promise<LifecycleTimes> {
  const create = perCall(100, () => createFakeProvider());
  const seeded = createFakeProvider();
  const forkEmpty = perCall(100, () => seeded.fork());
  const reset = perCall(100, () => seeded.reset());
  const full = createFakeProvider();
  for (let i = 0; i < users; i++) {
    const body = JSON.stringify({ primary_email: `t${i}@bench.test`, primary_email_auth_enabled: true });
    const r = await full.fetch("http://bench/api/v1/users", { method: "POST", headers: serverHeaders, body });
    if (r.status !== 201) throw new Error(`create user ${r.status}`);
  }
  const snap = full.snapshot();
  return {
    create,
    forkEmpty,
    reset,
    users,
    fork: perCall(10, () => full.fork()),
    snapshot: perCall(10, () => full.snapshot()),
    restore: perCall(10, () => full.restore(snap)),
  };
}

/** Spawn to first /health answer, `runs` times; the median. */
export async function coldStartMedian(runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const server = await startDevServer();
    times.push(server.startMillis);
    await server.stop();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
