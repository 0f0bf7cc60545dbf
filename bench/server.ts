/**
 * The dev server (`npm start`'s CLI) in a child process for the loopback figures, so its event loop, CPU time and RSS
 * are its own; and what /proc says about it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { performance } from "node:perf_hooks";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface ProcessStats {
  /** VmRSS in MiB. */
  rss: number;
  /** VmHWM (the peak RSS so far) in MiB. */
  peak: number;
  /** User + system CPU seconds used so far. */
  cpuSeconds: number;
}

/** From /proc (Linux); null elsewhere. CPU seconds say more than wall time on a shared, loaded machine. */
export function statsOf(pid: number | undefined): ProcessStats | null {
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

/** CPU seconds of the whole machine (all cores, all processes) so far, from /proc/stat: how loaded the machine was. */
export function machineCpuSeconds(): { busy: number; total: number } | null {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (line[3] ?? 0) + (line[4] ?? 0);
    const total = line.reduce((a, b) => a + b, 0);
    return { busy: (total - idle) / 100, total: total / 100 };
  } catch {
    return null;
  }
}

export interface DevServer {
  child: ChildProcess;
  base: string;
  /** Wall milliseconds from spawn to the first answer of /health. */
  startMillis: number;
  /**
   * Whether the dashboard or hosted pages were (re)built on this start (their sources changed): a Vite build in the
   * server's process costs seconds and leaves its RSS hundreds of MiB higher, so figures from such a start say so.
   */
  built: () => boolean;
  stop(): Promise<void>;
}

/** Starts the CLI on a free loopback port; `nodeArgs` go before the script (e.g. --cpu-prof). */
export async function startDevServer(options: { nodeArgs?: string[]; args?: string[] } = {}): Promise<DevServer> {
  return spawnUntilAnswering((port) => [
    ...(options.nodeArgs ?? []),
    "authsim/bin/authsim.js",
    "--port",
    String(port),
    "--host",
    "127.0.0.1",
    ...(options.args ?? []),
  ]);
}

/**
 * Node's own floor for the cold-start and idle-RSS figures: a bare node:http server answering /health, started and
 * timed exactly as the dev server is. What the machine and Node take before any code of ours runs.
 */
export function startBareNodeServer(): Promise<DevServer> {
  const script =
    'require("node:http").createServer((q, s) => s.end("ok")).listen(Number(process.argv[1]), "127.0.0.1")';
  return spawnUntilAnswering((port) => ["-e", script, String(port)]);
}

/** Spawns `node <args for a free port>` and polls /health every 10 ms until it answers. */
async function spawnUntilAnswering(argsFor: (port: number) => string[]): Promise<DevServer> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, argsFor(port), { stdio: ["ignore", "pipe", "inherit"] });
  let banner = "";
  child.stdout!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    if (banner.length < 20_000) banner += chunk;
  });
  const built = () => /^(Dashboard|Hosted sign-in): .*\b(built|rebuilt)\b/m.test(banner);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
  for (;;) {
    try {
      if ((await fetch(`${base}/health`)).ok)
        return { child, base, startMillis: performance.now() - started, built, stop };
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000 || child.exitCode !== null) {
      await stop();
      throw new Error(`node ${argsFor(port).join(" ")} did not answer within 60 s`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}
