/**
 * Bounded load on the dev server over loopback (issue 10): N concurrent clients for a fixed time, each running a mix of
 * sign-up, sign-in, getUser (GET /users/me) and refresh (the token endpoint). Prints throughput, latency percentiles,
 * errors and the server's memory, then checks nothing was lost: every user a client created is listed by the server
 * API, and the user count is what the clients made. Figures only: nothing here fails on time.
 *
 * The server runs in a child process (`npm start`'s CLI) so its event loop and its RSS are its own.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { devProjectSeed as dev } from "@authsim/fixtures";

export interface LoadOptions {
  clients: number;
  seconds: number;
  /** A hard cap on requests per client, so the loop is bounded even on a very fast machine. */
  maxRequestsPerClient: number;
}

const defaults: LoadOptions = { clients: 16, seconds: 5, maxRequestsPerClient: 50_000 };
const PASSWORD = "load-password-123";
type OpName = "sign-up" | "sign-in" | "getUser" | "refresh";
/** One cycle of a client: mostly reads and refreshes, as an app's traffic is (weights 1 : 2 : 5 : 2). */
const MIX: readonly OpName[] = ["sign-up", "getUser", "refresh", "getUser", "sign-in", "getUser", "refresh", "getUser", "sign-in", "getUser"];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * VmRSS and VmHWM (peak) of a process in MiB, and the CPU seconds it has used, from /proc (Linux); null elsewhere.
 * CPU seconds per request say more than wall time on a shared, loaded machine.
 */
function statsOf(pid: number | undefined): { rss: number; peak: number; cpuSeconds: number } | null {
  if (pid === undefined) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
    // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name) are user and system time in clock ticks (100/s).
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100;
    return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024, cpuSeconds };
  } catch {
    return null;
  }
}

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  // Loopback only: the CLI binds 127.0.0.1 by default and refuses other interfaces without --allow-network.
  const child = spawn(process.execPath, ["--import", "tsx", "fake-provider/src/cli.ts", "--port", String(port), "--host", "127.0.0.1"], { stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok) return { child, base };
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 30_000) {
      child.kill("SIGTERM");
      throw new Error("the dev server did not answer within 30 s");
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

export async function loadTest(options: Partial<LoadOptions> = {}): Promise<string[]> {
  const { clients, seconds, maxRequestsPerClient } = { ...defaults, ...options };
  const { child, base } = await startServer();
  const api = `${base}/api/v1`;
  const clientHeaders = { "content-type": "application/json", "x-stack-access-type": "client", "x-stack-project-id": dev.id, "x-stack-publishable-client-key": dev.keys.publishable_client_key };
  const serverHeaders = { ...clientHeaders, "x-stack-access-type": "server", "x-stack-secret-server-key": dev.keys.secret_server_key };
  const latencies: Record<OpName, number[]> = { "sign-up": [], "sign-in": [], getUser: [], refresh: [] };
  const errors: Record<OpName, number> = { "sign-up": 0, "sign-in": 0, getUser: 0, refresh: 0 };
  const created = new Set<string>();
  const firstError: string[] = [];

  const timed = async (op: OpName, call: () => Promise<Response>): Promise<Record<string, unknown> | null> => {
    const t = performance.now();
    try {
      const response = await call();
      const body = (await response.json()) as Record<string, unknown>;
      latencies[op].push(performance.now() - t);
      if (response.ok) return body;
      if (firstError.length < 3) firstError.push(`${op}: ${response.status} ${JSON.stringify(body).slice(0, 160)}`);
    } catch (error) {
      latencies[op].push(performance.now() - t);
      if (firstError.length < 3) firstError.push(`${op}: ${String(error)}`);
    }
    errors[op] += 1;
    return null;
  };

  const runClient = async (id: number, deadline: number) => {
    let accounts = 0;
    const email = (n: number) => `load-${id}-${n}@bench.test`;
    const signUp = async () => {
      const body = await timed("sign-up", () => fetch(`${api}/auth/password/sign-up`, { method: "POST", headers: clientHeaders, body: JSON.stringify({ email: email(accounts), password: PASSWORD }) }));
      if (body) {
        accounts += 1;
        created.add(String(body.user_id));
      }
      return body;
    };
    let session = await signUp();
    for (let i = 0; i < maxRequestsPerClient && performance.now() < deadline; i++) {
      const op = MIX[(i + id) % MIX.length]!;
      if (op === "sign-up") session = (await signUp()) ?? session;
      else if (op === "sign-in" && accounts > 0) {
        const body = JSON.stringify({ email: email(i % accounts), password: PASSWORD });
        session = (await timed("sign-in", () => fetch(`${api}/auth/password/sign-in`, { method: "POST", headers: clientHeaders, body }))) ?? session;
      } else if (op === "getUser" && session) {
        const headers = { ...clientHeaders, "x-stack-access-token": String(session.access_token) };
        await timed("getUser", () => fetch(`${api}/users/me`, { headers }));
      } else if (op === "refresh" && session) {
        const form = new URLSearchParams({ grant_type: "refresh_token", client_id: dev.id, client_secret: dev.keys.publishable_client_key, refresh_token: String(session.refresh_token) });
        const body = await timed("refresh", () => fetch(`${api}/auth/oauth/token`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() }));
        if (body) session = { ...session, access_token: body.access_token };
      }
    }
  };

  const before = statsOf(child.pid);
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: clients }, (_, id) => runClient(id, started + seconds * 1000)));
    const elapsed = (performance.now() - started) / 1000;
    const after = statsOf(child.pid);

    // Nothing lost: page through every user of the project with the server key.
    const listed = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < 10_000; page++) {
      const response: Response = await fetch(`${api}/users?limit=1000${cursor ? `&cursor=${cursor}` : ""}`, { headers: serverHeaders });
      const body = (await response.json()) as { items: { id: string }[]; pagination?: { next_cursor: string | null } };
      for (const user of body.items) listed.add(user.id);
      cursor = body.pagination?.next_cursor ?? null;
      if (!cursor) break;
    }
    const missing = [...created].filter((id) => !listed.has(id)).length;

    const all = Object.values(latencies).flat().sort((a, b) => a - b);
    const total = all.length;
    const totalErrors = Object.values(errors).reduce((a, b) => a + b, 0);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const lines = [
      `load over 127.0.0.1 (dev server in a child process): ${clients} clients for ${elapsed.toFixed(1)} s`,
      `  throughput: ${(total / elapsed).toFixed(0)} req/s (${total} requests), errors: ${totalErrors}`,
      `  latency overall: p50 ${ms(percentile(all, 50))}, p95 ${ms(percentile(all, 95))}, p99 ${ms(percentile(all, 99))}`,
    ];
    for (const op of Object.keys(latencies) as OpName[]) {
      const sorted = [...latencies[op]].sort((a, b) => a - b);
      lines.push(`  ${op.padEnd(8)} ${String(sorted.length).padStart(6)} req, p50 ${ms(percentile(sorted, 50))}, p95 ${ms(percentile(sorted, 95))}, p99 ${ms(percentile(sorted, 99))}, errors ${errors[op]}`);
    }
    if (before && after) {
      const cpu = after.cpuSeconds - before.cpuSeconds;
      lines.push(`  server RSS: ${before.rss.toFixed(0)} MiB before, ${after.rss.toFixed(0)} MiB after (peak ${after.peak.toFixed(0)} MiB)`);
      lines.push(`  server CPU: ${cpu.toFixed(2)} s for ${total} requests (${((cpu * 1000) / Math.max(total, 1)).toFixed(2)} ms per request; load average ${loadavg()[0]!.toFixed(1)})`);
    } else lines.push(`  client-process RSS: ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (server RSS needs /proc)`);
    lines.push(`  users created: ${created.size}, listed by the server: ${listed.size}, missing: ${missing}, counts consistent: ${listed.size === created.size ? "yes" : "no"}`);
    for (const line of firstError) lines.push(`  first errors: ${line}`);
    return lines;
  } finally {
    child.kill("SIGTERM");
  }
}
