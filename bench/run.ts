/**
 * `npm run bench`: one table of figures, asserting nothing (tests never assert on time). Issues 14 and 17.
 *  - sign-up, sign-in, refresh, GET /users/me, GET /projects/current: over loopback (50 keep-alive connections
 *    against the dev server in a child process) and in process through provider.fetch; req/s, p50, p99 and the CPU
 *    milliseconds each request cost (the figure that survives a machine shared with other work)
 *  - RSS idle, after 10,000 users, and over a mixed soak (start, peak, end, growth over the last minute, outbox)
 *  - live heap per user, session, email and request-log entry
 *  - createFakeProvider / fork / snapshot / restore / reset, and the dev server's cold start (median of 5)
 *  - webhook delivery latency: from a change to its user.created at an endpoint on loopback (webhooks.ts)
 *  - the external database sync's rows per second into a throwaway PostgreSQL (db-sync.ts)
 *  - the slowest test files, from a vitest JSON report (slow-tests.ts)
 *  - hostile requests (hostile.ts, issue 31): the worst GET /api/v1 latency while templates loop until their deadline,
 *    and a 100 MB body's refusal (time to the 413, the server's RSS)
 *  - the Firebase Auth emulator beside the dev server (firebase.ts): password sign-up and sign-in over loopback with the
 *    same load generator and connections, measured in the same run; firebase-tools is installed into a cache directory
 *    outside the repo when absent (not a dependency of the repo)
 *  - the machine's speed before and after (machine-speed.ts): the host's speed drifts, CPU milliseconds included
 * Environment: BENCH_SECONDS (per scenario, default 8), BENCH_SOAK_SECONDS (default 120, 0 to skip),
 * BENCH_CONNECTIONS (default 50), BENCH_ONLY (comma-separated parts: cold,import,loopback,inprocess,memory,soak,lifecycle,webhooks,dbsync,hostile,firebase,tests).
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { machineSpeedMillis } from "./machine-speed.ts";
import { recordCosts, rssAfterUsers } from "./memory.ts";
import { bodyAttack, renderAttack } from "./hostile.ts";
import { firebaseComparison, FIREBASE_TOOLS_VERSION } from "./firebase.ts";
import { machineCpuSeconds, startBareNodeServer, startDevServer, statsOf } from "./server.ts";
import { slowestTestFiles } from "./slow-tests.ts";
import { soak } from "./soak.ts";
import { inProcessRows, loopbackRows, type Row } from "./throughput.ts";
import { coldStartMedian, importMedian, lifecycleTimes } from "./timings.ts";
import { dbSyncRate } from "./db-sync.ts";
import { inProcessWebhookLatency, loopbackWebhookLatency, type WebhookLatency } from "./webhooks.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? 120);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const only = process.env.BENCH_ONLY?.split(",");
const wanted = (part: string) => !only || only.includes(part);

const lines: string[] = [];
const out = (line: string) => {
  lines.push(line);
  console.error(`  … ${line}`); // progress on stderr; the table is printed whole at the end on stdout
};
const f0 = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "—");
const f1 = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : "—");
const f2 = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : "—");
const mib = (v: number) => `${f0(v)} MiB`;
const kib = (bytes: number) => `${f1(bytes / 1024)} KiB`;

/** Cores busy machine-wide during `f`, and how many of them were this bench's own processes. */
async function measured<T>(
  f: () => Promise<T>,
  pids: () => (number | undefined)[],
): Promise<{ value: T; note: string }> {
  const m0 = machineCpuSeconds();
  const own = () =>
    pids().reduce<number>((a, pid) => a + (statsOf(pid)?.cpuSeconds ?? 0), 0) +
    (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
  const own0 = own();
  const t = performance.now();
  const value = await f();
  const wall = (performance.now() - t) / 1000;
  const m1 = machineCpuSeconds();
  const own1 = own();
  if (!m0 || !m1) return { value, note: "" };
  const busy = (m1.busy - m0.busy) / wall;
  const others = Math.max(0, busy - (own1 - own0) / wall);
  return {
    value,
    note: `machine busy ${f1(busy)} of ${f0((m1.total - m0.total) / wall)} cores, ${f1(others)} of them other work`,
  };
}

function throughputTable(loop: Row[] | null, inproc: Row[] | null): string[] {
  const names = (loop ?? inproc ?? []).map((r) => r.name);
  const cell = (r: Row | undefined) =>
    r
      ? `${f0(r.rps).padStart(6)} | ${f1(r.p50).padStart(5)} | ${f1(r.p99).padStart(6)} | ${f2(r.cpuMillisPerRequest).padStart(5)}`
      : "     — |     — |      — |     —";
  const rows = names.map((name) => {
    const l = loop?.find((r) => r.name === name);
    const i = inproc?.find((r) => r.name === name);
    const errors = (l?.errors ?? 0) + (i?.errors ?? 0);
    return `| ${name.padEnd(21)} | ${cell(l)} | ${cell(i)} |${errors ? ` errors ${errors}: ${l?.firstError ?? i?.firstError}` : ""}`;
  });
  return [
    `| ${"".padEnd(21)} | loopback, ${connections} connections       | in process, concurrency ${connections}  |`,
    `| ${"request".padEnd(21)} |  req/s | p50ms |  p99ms | cpu ms/req | req/s | p50ms | p99ms | cpu ms/req |`,
    `|${"-".repeat(23)}|--------|-------|--------|-------|--------|-------|--------|-------|`,
    ...rows,
  ];
}

async function main() {
  out(
    `authsim bench — node ${process.version}, ${seconds} s per scenario, soak ${soakSeconds} s; load average at start ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" ")}`,
  );
  out(
    `machine speed at start: a fixed workload in ${f1(machineSpeedMillis())} ms (lower is faster; compare runs only as far as these agree)`,
  );

  if (wanted("cold")) {
    const cold = await coldStartMedian(5);
    const floor = await coldStartMedian(5, startBareNodeServer);
    out(
      `cold start of the dev server to first answer: ${f0(cold.millis)} ms, RSS 1 s later ${mib(cold.idleRssMiB)} (medians of 5); Node's own floor, a bare node:http server started and timed the same way: ${f0(floor.millis)} ms, ${mib(floor.idleRssMiB)}`,
    );
  }

  let loop: Row[] | null = null;
  if (wanted("loopback")) {
    const server = await startDevServer();
    const { value, note } = await measured(
      () => loopbackRows(server, connections, seconds),
      () => [server.child.pid],
    );
    loop = value;
    await server.stop();
    out(`loopback: ${note}`);
  }
  let inproc: Row[] | null = null;
  if (wanted("inprocess")) {
    const { value, note } = await measured(
      () => inProcessRows(connections, seconds),
      () => [],
    );
    inproc = value;
    out(`in process: ${note}`);
  }
  if (loop || inproc) for (const line of throughputTable(loop, inproc)) out(line);

  // After the throughput runs: the record costs are measured in this process, the load generator's, and with them run
  // first the loopback figures came out 5–15% lower (one paired run).
  if (wanted("memory")) {
    const server = await startDevServer();
    await new Promise((r) => setTimeout(r, 1000));
    const idle = statsOf(server.child.pid);
    // V8's memory reducer runs some seconds after the heap last grew (8 s at the earliest; 10 to 20 s here): it gives
    // back the young generation's pages and what start-up left behind. What an idle dev server holds from then on.
    await new Promise((r) => setTimeout(r, 19_000));
    const settled = statsOf(server.child.pid);
    const after = await rssAfterUsers(server, 10_000);
    await server.stop();
    out(
      `dev server RSS idle: ${mib(idle?.rss ?? NaN)} 1 s after its first answer, ${mib(settled?.rss ?? NaN)} after 20 s idle (V8's memory reducer has run); after 10,000 users (POST /users with a password): ${mib(after.rss)} (peak ${mib(after.peak)})`,
    );
    const costs = await recordCosts();
    out(
      `live heap per record (in process): user ${kib(costs.user)}, session ${kib(costs.session)}, email in the outbox ${kib(costs.email)} (its sign-in code included), request-log entry ${kib(costs.logEntry)}`,
    );
  }

  if (wanted("soak") && soakSeconds > 0) {
    const server = await startDevServer();
    const { value: s, note } = await measured(
      () => soak(server, soakSeconds, connections),
      () => [server.child.pid],
    );
    await server.stop();
    out(
      `mixed soak (${f0(s.seconds)} s, ${connections} connections): ${f0(s.requests / s.seconds)} req/s, ${s.requests} requests, ${s.errors} errors${s.firstError ? ` (first: ${s.firstError})` : ""}, server CPU ${f2(s.cpuMillisPerRequest)} ms/request; ${note}`,
    );
    out(
      `  RSS start ${mib(s.rssStart)}, peak ${mib(s.rssPeak)}, end ${mib(s.rssEnd)}; growth over the last ${f0(s.lastWindowSeconds)} s ${f0(s.lastWindowGrowth)} MiB; outbox ${s.outboxSize} emails (${s.outboxDropped} dropped); users created ${s.usersCreated}, missing from the server's list ${s.usersMissing}`,
    );
  }

  if (wanted("import")) {
    const i = await importMedian(5);
    out(
      `a fresh process's import of @authsim/fake-provider (the built package): ${f0(i.importMillis)} ms, its first provider's first answer at ${f0(i.firstAnswerMillis)} ms (medians of 5)`,
    );
  }
  if (wanted("lifecycle")) {
    const t = await lifecycleTimes();
    out(
      `createFakeProvider() ${f2(t.create)} ms; fork() of a seeded provider ${f2(t.forkEmpty)} ms; reset() ${f2(t.reset)} ms (medians)`,
    );
    out(
      `one test's worth (fresh provider + password sign-up + sign-in through provider.fetch): ${f2(t.oneTest)} ms (median)`,
    );
    out(
      `with ${t.users} users: fork() ${f1(t.fork)} ms, snapshot() ${f1(t.snapshot)} ms, restore() ${f1(t.restore)} ms (medians)`,
    );
  }
  if (wanted("webhooks")) {
    const latency = (w: WebhookLatency) =>
      `from the request sent p50 ${f1(w.fromRequest.p50)} ms, p99 ${f1(w.fromRequest.p99)} ms; after its answer p50 ${f1(w.afterAnswer.p50)} ms, p99 ${f1(w.afterAnswer.p99)} ms (${w.deliveries} deliveries, one at a time)`;
    const server = await startDevServer();
    out(
      `webhook delivery, POST /users to its user.created at a loopback endpoint, dev server: ${latency(await loopbackWebhookLatency(server))}`,
    );
    await server.stop();
    out(`webhook delivery, in process (the endpoint on loopback): ${latency(await inProcessWebhookLatency())}`);
  }
  if (wanted("dbsync")) {
    const rate = await dbSyncRate();
    if ("reason" in rate) out(`external database sync not measured: ${rate.reason}`);
    else
      out(
        `external database sync into PostgreSQL (${rate.users} users, one database): first sync ${f0(rate.initialRowsPerSecond)} rows/s (${f0(rate.initialMillis)} ms), every user renamed ${f0(rate.updateRowsPerSecond)} rows/s`,
      );
  }
  if (wanted("hostile")) {
    const server = await startDevServer();
    const attack = await renderAttack(server, seconds);
    const body = await bodyAttack(server);
    await server.stop();
    out(
      `looping-render attack (${seconds} s: two looping previews after another, looping queued emails): GET /api/v1 worst ${f1(attack.worstMillis)} ms, p99 ${f1(attack.p99Millis)} ms, median ${f1(attack.medianMillis)} ms over ${attack.probes} probes; ${attack.loopsEnded} looping renders ended`,
    );
    out(
      `100 MB body to sign-in: ${body.status} after ${f0(body.declaredMillis)} ms (Content-Length), ${f0(body.chunkedMillis)} ms (chunked); server RSS ${mib(body.rssStart)} → peak ${mib(body.rssPeak)}`,
    );
  }
  if (wanted("firebase")) {
    const cmp = await firebaseComparison(connections, seconds, out);
    if ("reason" in cmp) out(`Firebase Auth emulator comparison not measured: ${cmp.reason}`);
    else {
      out(
        `Firebase Auth emulator (firebase-tools ${FIREBASE_TOOLS_VERSION}, installed by the bench outside the repo) beside the dev server, loopback, ${connections} connections, ${seconds} s each; started in ${f0(cmp.firebaseStartMillis)} ms (authsim ${f0(cmp.authsimStartMillis)} ms):`,
      );
      for (const r of cmp.rows)
        out(
          `  ${r.name}: authsim ${f0(r.authsim.rps)} req/s (${f2(r.authsim.cpuMillisPerRequest)} cpu ms/req), Firebase ${f0(r.firebase.rps)} req/s (${f2(r.firebase.cpuMillisPerRequest)} cpu ms/req): ${f1(r.authsim.rps / r.firebase.rps)}× the throughput, ${f1(r.firebase.cpuMillisPerRequest / r.authsim.cpuMillisPerRequest)}× less CPU a request${r.authsim.errors + r.firebase.errors ? `; errors ${r.authsim.errors} / ${r.firebase.errors}: ${r.firstError}` : ""}`,
        );
    }
  }
  if (wanted("tests")) for (const line of slowestTestFiles()) out(line);

  out(
    `machine speed at the end: ${f1(machineSpeedMillis())} ms; load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" ")}`,
  );
  console.log(lines.join("\n"));
}

await main();
