/**
 * `npm run bench`: prints figures, asserts nothing (tests never assert on time).
 *  - cold start of the dev server (`npm start`'s CLI) to its first answer
 *  - in-process createFakeProvider() and reset() time
 *  - password sign-up and sign-in requests per second, in process
 *  - RSS after 10,000 users
 *  - a bounded load test over loopback (load.ts): throughput, latency percentiles, errors, server RSS, nothing lost
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { performance } from "node:perf_hooks";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { createFakeProvider } from "@authsim/fake-provider";
import { loadTest } from "./load.ts";

const clientHeaders = {
  "content-type": "application/json",
  "x-stack-access-type": "client",
  "x-stack-project-id": dev.id,
  "x-stack-publishable-client-key": dev.keys.publishable_client_key,
};
const serverHeaders = { ...clientHeaders, "x-stack-access-type": "server", "x-stack-secret-server-key": dev.keys.secret_server_key };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

async function coldStart(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "fake-provider/src/cli.ts", "--port", String(port)], { stdio: "ignore" });
  try {
    for (;;) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/health`);
        if (r.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      if (performance.now() - started > 30_000) throw new Error("dev server did not answer within 30 s");
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill("SIGTERM");
  }
}

function timeIt(n: number, f: () => void): number {
  const t = performance.now();
  for (let i = 0; i < n; i++) f();
  return (performance.now() - t) / n;
}

async function rate(label: string, n: number, concurrency: number, f: (i: number) => Promise<void>): Promise<string> {
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await f(next++);
    }),
  );
  const seconds = (performance.now() - t) / 1000;
  return `${label}: ${(n / seconds).toFixed(0)} req/s (${n} requests, concurrency ${concurrency})`;
}

async function main() {
  const lines: string[] = [];
  lines.push(`cold start of the dev server to first answer: ${(await coldStart()).toFixed(0)} ms`);

  lines.push(`createFakeProvider(): ${timeIt(200, () => createFakeProvider()).toFixed(3)} ms each (200 runs)`);
  const resettable = createFakeProvider();
  lines.push(`provider.reset(): ${timeIt(200, () => resettable.reset()).toFixed(3)} ms each (200 runs)`);

  const p = createFakeProvider();
  const post = (path: string, body: unknown, headers: Record<string, string> = clientHeaders) =>
    p.fetch(`http://bench/api/v1${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  lines.push(
    await rate("password sign-up", 2000, 8, async (i) => {
      const r = await post("/auth/password/sign-up", { email: `u${i}@bench.test`, password: "password-123" });
      if (r.status !== 200) throw new Error(`sign-up ${r.status}`);
    }),
  );
  lines.push(
    await rate("password sign-in", 2000, 8, async (i) => {
      const r = await post("/auth/password/sign-in", { email: `u${i % 2000}@bench.test`, password: "password-123" });
      if (r.status !== 200) throw new Error(`sign-in ${r.status}`);
    }),
  );

  const fresh = createFakeProvider();
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  for (let i = 0; i < 10_000; i++) {
    const r = await fresh.fetch("http://bench/api/v1/users", {
      method: "POST",
      headers: serverHeaders,
      body: JSON.stringify({ primary_email: `m${i}@bench.test`, display_name: `User ${i}`, primary_email_auth_enabled: true }),
    });
    if (r.status !== 201) throw new Error(`create user ${r.status}`);
  }
  global.gc?.();
  const rssAfter = process.memoryUsage().rss;
  // RSS keeps pages the allocator has not returned; the live heap after a full GC is what the users really hold.
  const heapAfter = process.memoryUsage().heapUsed;
  const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  lines.push(
    `RSS after 10,000 users: ${mib(rssAfter)} MiB (+${mib(rssAfter - rssBefore)} MiB); live heap +${mib(heapAfter - heapBefore)} MiB (${((heapAfter - heapBefore) / 10_000 / 1024).toFixed(1)} KiB a user, request log included)`,
  );
  const listStart = performance.now();
  const list = await fresh.fetch("http://bench/api/v1/users?limit=100", { headers: serverHeaders });
  if (list.status !== 200) throw new Error(`list ${list.status}`);
  lines.push(`GET /users?limit=100 over 10,000 users: ${(performance.now() - listStart).toFixed(1)} ms`);

  lines.push(...(await loadTest()));

  console.log(lines.join("\n"));
}

await main();
