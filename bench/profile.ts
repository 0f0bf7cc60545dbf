/**
 * `node --import tsx bench/profile.ts [scenario] [seconds]`: the dev server under one scenario's load with
 * `node --cpu-prof`, then the top self-time functions of its profile (written to /tmp/authsim-prof). Profile first,
 * then change what it shows.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { keepAliveAgent, runLoad, send } from "./http-load.ts";
import { prepareAccounts, scenarios } from "./scenarios.ts";
import { startDevServer, statsOf } from "./server.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Self time by function (name and file) in the last `seconds` of the profile (the load, not the start-up), as shares. */
export function topSelf(profile: CpuProfile, count: number, seconds: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const total = profile.timeDeltas.reduce((a, b) => a + b, 0);
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (at < total - seconds * 1e6) continue;
    const node = byId.get(profile.samples[i]!)!;
    const file = node.callFrame.url.split("/").slice(-2).join("/");
    const key = `${node.callFrame.functionName || "(anonymous)"} ${file}:${node.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const window = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, micros]) => `${((100 * micros) / window).toFixed(1).padStart(5)}%  ${key}`);
}

const dir = "/tmp/authsim-prof";
const only = process.argv[2] ?? "password sign-in";
const seconds = Number(process.argv[3] ?? 8);
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
const server = await startDevServer({ nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${dir}`] });
const agent = keepAliveAgent(50);
const base = new URL(server.base);
const accounts = await prepareAccounts((req) => send(agent, base, req), "prof", 200);
const scenario = scenarios(accounts, "prof").find((s) => s.name === only)!;
const before = statsOf(server.child.pid)!;
const result = await runLoad({ base: server.base, connections: 50, seconds, next: scenario.next, agent });
const after = statsOf(server.child.pid)!;
await server.stop();
agent.destroy();
console.log(
  `${only}: ${(result.requests / result.seconds).toFixed(0)} req/s, ${result.errors} errors, server CPU ${(((after.cpuSeconds - before.cpuSeconds) * 1e3) / result.requests).toFixed(3)} ms/request${result.firstError ? `, first error ${result.firstError}` : ""}`,
);
const file = readdirSync(dir).find((f) => f.endsWith(".cpuprofile"));
if (file) console.log(topSelf(JSON.parse(readFileSync(join(dir, file), "utf8")) as CpuProfile, 30, seconds).join("\n"));
