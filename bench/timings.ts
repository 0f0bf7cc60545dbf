/**
 * How long the in-process lifecycle takes (createFakeProvider, fork, snapshot + restore of a provider holding 1,000
 * users, one test's worth of work: a fresh provider, a password sign-up and a sign-in through provider.fetch) and the
 * dev server's cold start (median of 5). Medians: one slow call on a machine shared with other work says little.
 */
import { execFile } from "node:child_process";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createFakeProvider } from "@authsim/fake-provider";
import { clientHeaders, PASSWORD, serverHeaders } from "./scenarios.ts";
import { startDevServer, statsOf, type DevServer } from "./server.ts";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The median of `n` calls; the first call pays for module-level work, so it is made first and not counted. */
async function perCall(n: number, f: () => unknown): Promise<number> {
  await f();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return median(times);
}

export interface LifecycleTimes {
  create: number;
  forkEmpty: number;
  reset: number;
  /** A fresh provider, a password sign-up and a sign-in through provider.fetch: what one test of a suite costs. */
  oneTest: number;
  users: number;
  fork: number;
  snapshot: number;
  restore: number;
}

async function oneTest(n: number): Promise<void> {
  const provider = createFakeProvider();
  const body = JSON.stringify({ email: `t${n}@bench.test`, password: PASSWORD });
  const init = { method: "POST", headers: clientHeaders, body };
  const up = await provider.fetch("http://bench/api/v1/auth/password/sign-up", init);
  const upText = await up.text();
  if (up.status !== 200) throw new Error(`sign-up ${up.status} ${upText}`);
  const signIn = await provider.fetch("http://bench/api/v1/auth/password/sign-in", init);
  const inText = await signIn.text();
  if (signIn.status !== 200) throw new Error(`sign-in ${signIn.status} ${inText}`);
}

export async function lifecycleTimes(users = 1000): Promise<LifecycleTimes> {
  const create = await perCall(200, () => createFakeProvider());
  const seeded = createFakeProvider();
  const forkEmpty = await perCall(200, () => seeded.fork());
  const reset = await perCall(200, () => seeded.reset());
  let tests = 0;
  const test = await perCall(200, () => oneTest(tests++));
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
    oneTest: test,
    users,
    fork: await perCall(50, () => full.fork()),
    snapshot: await perCall(50, () => full.snapshot()),
    restore: await perCall(50, () => full.restore(snap)),
  };
}

/** Spawn to first /health answer, `runs` times: the medians of that and of the RSS 1 s later. */
export async function coldStartMedian(
  runs = 5,
  start: () => Promise<DevServer> = startDevServer,
): Promise<{ millis: number; idleRssMiB: number }> {
  const times: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const server = await start();
    times.push(server.startMillis);
    await new Promise((r) => setTimeout(r, 1000));
    rss.push(statsOf(server.child.pid)?.rss ?? NaN);
    await server.stop();
  }
  return { millis: median(times), idleRssMiB: median(rss) };
}

/**
 * A test worker's first import of the emulator, as a test runner's fresh process makes it (vitest runs each test file in
 * a process of its own by default): Node loading the built package (dist/bundle/, not the sources) and the first
 * provider answering one request. Spawned from authsim/, where the workspace's packages resolve as installed. Medians.
 */
export async function importMedian(runs = 5): Promise<{ importMillis: number; firstAnswerMillis: number }> {
  const script = [
    "const t = performance.now();",
    'const { createFakeProvider } = await import("@authsim/fake-provider");',
    "const imported = performance.now() - t;",
    'await createFakeProvider().fetch(new Request("http://localhost/health"));',
    "console.log(JSON.stringify([imported, performance.now() - t]));",
  ].join("\n");
  const imports: number[] = [];
  const answers: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--input-type=module", "-e", script],
        { cwd: fileURLToPath(new URL("../authsim/", import.meta.url)) },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      );
    });
    const [imported, answered] = JSON.parse(out) as [number, number];
    imports.push(imported);
    answers.push(answered);
  }
  return { importMillis: median(imports), firstAnswerMillis: median(answers) };
}
