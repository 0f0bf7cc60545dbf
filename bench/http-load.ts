/**
 * A small closed-loop load generator over node:http with keep-alive sockets (no dependency such as autocannon): N
 * connections, each sending its next request as soon as the previous answer is read, for a fixed time. node:http
 * costs the generator about a third of what `fetch` does, which matters when it shares two cores with the server.
 */
import { Agent, request as httpRequest } from "node:http";
import { performance } from "node:perf_hooks";

export interface BenchRequest {
  method: "GET" | "POST";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latencies: Float64Array;
  firstError: string | null;
}

export interface Answer {
  status: number;
  body: string;
}

/** One exchange over the agent; the body is read whole (answers here are a few hundred bytes). */
export function send(agent: Agent, base: URL, req: BenchRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers =
      req.body === undefined ? req.headers : { ...req.headers, "content-length": String(Buffer.byteLength(req.body)) };
    const r = httpRequest(
      { agent, host: base.hostname, port: base.port, method: req.method, path: req.path, headers },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        res.on("error", reject);
      },
    );
    r.on("error", reject);
    r.end(req.body);
  });
}

export function keepAliveAgent(connections: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

/**
 * Runs `connections` loops for `seconds`; `next(i)` gives the i-th request (shared counter across loops), `ok` judges
 * an answer (default: a 2xx). Latency is measured for every request, errors included.
 */
export async function runLoad(options: {
  base: string;
  connections: number;
  seconds: number;
  next: (i: number) => BenchRequest;
  ok?: (answer: Answer, i: number) => boolean;
  agent?: Agent;
}): Promise<LoadResult> {
  const base = new URL(options.base);
  const agent = options.agent ?? keepAliveAgent(options.connections);
  const ok = options.ok ?? ((a: Answer) => a.status >= 200 && a.status < 300);
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  let firstError: string | null = null;
  const started = performance.now();
  const deadline = started + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < deadline) {
        const i = counter++;
        const t = performance.now();
        try {
          const answer = await send(agent, base, options.next(i));
          if (!ok(answer, i)) {
            errors++;
            firstError ??= `${answer.status} ${answer.body.slice(0, 160)}`;
          }
        } catch (error) {
          errors++;
          firstError ??= String(error);
        }
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (!options.agent) agent.destroy();
  return { requests: latencies.length, errors, seconds, latencies: Float64Array.from(latencies).sort(), firstError };
}

export const percentile = (sorted: ArrayLike<number>, p: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
