/**
 * Requests per second, p50 and p99 of each scenario: over loopback against the dev server in a child process, and in
 * process through `provider.fetch`. Each also reports the CPU milliseconds a request cost (the server's, from /proc,
 * over loopback; this process's in process), which stay meaningful when other work shares the machine.
 */
import { performance } from "node:perf_hooks";
import { createFakeProvider } from "@authsim/fake-provider";
import {
  keepAliveAgent,
  percentile,
  runLoad,
  send,
  type Answer,
  type BenchRequest,
  type LoadResult,
} from "./http-load.ts";
import { prepareAccounts, scenarios, type Send } from "./scenarios.ts";
import { statsOf, type DevServer } from "./server.ts";

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  cpuMillisPerRequest: number;
  errors: number;
  firstError: string | null;
}

const rowOf = (name: string, r: LoadResult, cpuSeconds: number): Row => ({
  name,
  rps: r.requests / r.seconds,
  p50: percentile(r.latencies, 50),
  p99: percentile(r.latencies, 99),
  cpuMillisPerRequest: (cpuSeconds * 1000) / Math.max(1, r.requests),
  errors: r.errors,
  firstError: r.firstError,
});

/** Each scenario for `seconds` with `connections` keep-alive connections against a running dev server. */
export async function loopbackRows(server: DevServer, connections: number, seconds: number): Promise<Row[]> {
  const agent = keepAliveAgent(connections);
  const base = new URL(server.base);
  const run = `loop${server.child.pid}`;
  const accounts = await prepareAccounts((req) => send(agent, base, req), run, 500);
  const rows: Row[] = [];
  for (const scenario of scenarios(accounts, run)) {
    const before = statsOf(server.child.pid);
    const result = await runLoad({ base: server.base, connections, seconds, next: scenario.next, agent });
    const after = statsOf(server.child.pid);
    rows.push(rowOf(scenario.name, result, before && after ? after.cpuSeconds - before.cpuSeconds : NaN));
  }
  agent.destroy();
  return rows;
}

/** The same scenarios through `provider.fetch` (no sockets), `concurrency` requests in flight. */
export async function inProcessRows(concurrency: number, seconds: number): Promise<Row[]> {
  const provider = createFakeProvider();
  const sendInProcess: Send = async (req: BenchRequest): Promise<Answer> => {
    const response = await provider.fetch(`http://bench${req.path}`, {
      method: req.method,
      headers: req.headers,
      ...(req.body === undefined ? {} : { body: req.body }),
    });
    return { status: response.status, body: await response.text() };
  };
  const accounts = await prepareAccounts(sendInProcess, "inproc", 500);
  const rows: Row[] = [];
  for (const scenario of scenarios(accounts, "inproc")) {
    const latencies: number[] = [];
    let errors = 0;
    let counter = 0;
    let firstError: string | null = null;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < deadline) {
          const t = performance.now();
          const answer = await sendInProcess(scenario.next(counter++));
          if (answer.status < 200 || answer.status >= 300) {
            errors++;
            firstError ??= `${answer.status} ${answer.body.slice(0, 160)}`;
          }
          latencies.push(performance.now() - t);
        }
      }),
    );
    const cpu = process.cpuUsage(cpuBefore);
    const result: LoadResult = {
      requests: latencies.length,
      errors,
      seconds: (performance.now() - started) / 1000,
      latencies: Float64Array.from(latencies).sort(),
      firstError,
    };
    rows.push(rowOf(scenario.name, result, (cpu.user + cpu.system) / 1e6));
  }
  return rows;
}
