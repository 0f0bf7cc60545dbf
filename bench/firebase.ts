/**
 * The Firebase Auth emulator beside authsim, measured in the same run with the same load generator (http-load.ts),
 * connection count and seconds (issue 30): password sign-up and sign-in over loopback, requests per second and server
 * CPU per request.
 *
 * firebase-tools is not a dependency of this repository: the bench installs it with npm, once, into a cache directory
 * outside the repo (BENCH_FIREBASE_DIR, default ~/.cache/authsim-bench/firebase-tools-<version>), and starts its Auth
 * emulator (Node code; no Java needed for auth alone) from a throwaway directory with a demo project, which the
 * emulator runs fully offline. When any step cannot run here, the part says why instead of a figure.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { keepAliveAgent, runLoad, send, type BenchRequest } from "./http-load.ts";
import { prepareAccounts, PASSWORD, scenarios, type Account, type Send } from "./scenarios.ts";
import { freePort, startDevServer, statsOf, type DevServer } from "./server.ts";

export const FIREBASE_TOOLS_VERSION = "15.34.2";
const cacheDir =
  process.env.BENCH_FIREBASE_DIR ??
  join(homedir(), ".cache", "authsim-bench", `firebase-tools-${FIREBASE_TOOLS_VERSION}`);
const firebaseBin = join(cacheDir, "node_modules", "firebase-tools", "lib", "bin", "firebase.js");
/** A demo- project id: the emulators run it without credentials or network (Firebase's "demo projects"). */
const PROJECT = "demo-authsim-bench";

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once("exit", (code) => resolve(code)),
  );
}

/** firebase-tools in the cache directory, installed by npm when absent; the reason when it cannot be. */
async function ensureFirebaseTools(log: (line: string) => void): Promise<string | null> {
  if (existsSync(firebaseBin)) return null;
  log(
    `installing firebase-tools@${FIREBASE_TOOLS_VERSION} into ${cacheDir} (outside the repo, once; not a dependency)`,
  );
  const npm = spawn(
    "npm",
    [
      "install",
      "--prefix",
      cacheDir,
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--omit=optional",
      `firebase-tools@${FIREBASE_TOOLS_VERSION}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  npm.stderr!.setEncoding("utf8").on("data", (chunk: string) => (stderr = (stderr + chunk).slice(-2000)));
  const code = await new Promise<number | null>((resolve) => {
    npm.once("error", () => resolve(-1));
    npm.once("exit", resolve);
  });
  if (code !== 0 || !existsSync(firebaseBin))
    return `npm install firebase-tools@${FIREBASE_TOOLS_VERSION} failed (exit ${code}): ${stderr.trim().split("\n").slice(-3).join(" / ")}`;
  return null;
}

interface FirebaseAuth {
  child: ChildProcess;
  base: string;
  startMillis: number;
  stop(): Promise<void>;
}

/** The Auth emulator alone on a free loopback port, from a throwaway directory holding its firebase.json. */
async function startFirebaseAuth(): Promise<FirebaseAuth | string> {
  const dir = mkdtempSync(join(tmpdir(), "authsim-bench-firebase-"));
  const [port, hub, logging] = [await freePort(), await freePort(), await freePort()];
  writeFileSync(
    join(dir, "firebase.json"),
    JSON.stringify({
      emulators: {
        auth: { host: "127.0.0.1", port },
        hub: { host: "127.0.0.1", port: hub },
        logging: { host: "127.0.0.1", port: logging },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const started = performance.now();
  const child = spawn(process.execPath, [firebaseBin, "emulators:start", "--only", "auth", "--project", PROJECT], {
    cwd: dir,
    // CI: no prompts (usage reporting, updates); a home of its own keeps the user's Firebase login out of it.
    env: { ...process.env, CI: "1", HOME: dir, FIREBASE_CLI_DISABLE_UPDATE_CHECK: "true" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (chunk: Buffer) => (output = (output + chunk.toString("utf8")).slice(-4000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const done = exited(child);
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGINT");
    const timer = setTimeout(() => child.exitCode === null && child.kill("SIGKILL"), 10_000);
    await done;
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    try {
      if ((await fetch(`${base}/`)).ok) return { child, base, startMillis: performance.now() - started, stop };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null || performance.now() - started > 300_000) {
      await stop();
      return `the Firebase Auth emulator did not start: ${output.trim().split("\n").slice(-4).join(" / ")}`;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const identityToolkit = (method: string, email: string): BenchRequest => ({
  method: "POST",
  path: `/identitytoolkit.googleapis.com/v1/accounts:${method}?key=bench`,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ email, password: PASSWORD, returnSecureToken: true }),
});

export interface SideBySideRow {
  name: string;
  authsim: { rps: number; cpuMillisPerRequest: number; errors: number };
  firebase: { rps: number; cpuMillisPerRequest: number; errors: number };
  firstError: string | null;
}

export type FirebaseComparison =
  { rows: SideBySideRow[]; firebaseStartMillis: number; authsimStartMillis: number } | { reason: string };

/**
 * Sign-up, then sign-in, each against authsim's dev server and then Firebase's emulator (both running throughout, so
 * neither is measured while the other starts), with `connections` keep-alive connections for `seconds`.
 */
export async function firebaseComparison(
  connections: number,
  seconds: number,
  log: (line: string) => void,
): Promise<FirebaseComparison> {
  const missing = await ensureFirebaseTools(log);
  if (missing) return { reason: missing };
  const firebase = await startFirebaseAuth();
  if (typeof firebase === "string") return { reason: firebase };
  let authsim: DevServer | null = null;
  const agent = keepAliveAgent(connections);
  try {
    authsim = await startDevServer();
    const sendTo =
      (base: string): Send =>
      (req) =>
        send(agent, new URL(base), req);
    const run = `cmp${process.pid}`;
    const authsimAccounts = await prepareAccounts(sendTo(authsim.base), run, 500);
    const [authsimUp, authsimIn] = scenarios(authsimAccounts, run);
    // Firebase's 500 accounts for the sign-ins, made through its own sign-up, 8 at a time as prepareAccounts makes
    // authsim's (its answers are not authsim's, so that helper cannot read them).
    const firebaseAccounts: Account[] = [];
    let next = 0;
    const made = Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < 500) {
          const email = `${run}-${next++}@bench.test`;
          const answer = await send(agent, new URL(firebase.base), identityToolkit("signUp", email));
          if (answer.status !== 200)
            throw new Error(`Firebase's sign-up answered ${answer.status}: ${answer.body.slice(0, 200)}`);
          firebaseAccounts.push({ email, accessToken: "", refreshToken: "" });
        }
      }),
    );
    const failed = await made.then(
      () => null,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    if (failed) return { reason: failed };
    const measure = async (server: { base: string; child: ChildProcess }, next: (i: number) => BenchRequest) => {
      const before = statsOf(server.child.pid);
      const result = await runLoad({ base: server.base, connections, seconds, next, agent });
      const after = statsOf(server.child.pid);
      const cpu = before && after ? after.cpuSeconds - before.cpuSeconds : NaN;
      return {
        figures: {
          rps: result.requests / result.seconds,
          cpuMillisPerRequest: (cpu * 1000) / Math.max(1, result.requests),
          errors: result.errors,
        },
        firstError: result.firstError,
      };
    };
    const rows: SideBySideRow[] = [];
    const pairs: [string, (i: number) => BenchRequest, (i: number) => BenchRequest][] = [
      ["password sign-up", authsimUp!.next, (i) => identityToolkit("signUp", `${run}-up-${i}@bench.test`)],
      [
        "password sign-in",
        authsimIn!.next,
        (i) => identityToolkit("signInWithPassword", firebaseAccounts[i % firebaseAccounts.length]!.email),
      ],
    ];
    for (const [name, authsimNext, firebaseNext] of pairs) {
      const a = await measure(authsim, authsimNext);
      const f = await measure(firebase, firebaseNext);
      rows.push({ name, authsim: a.figures, firebase: f.figures, firstError: a.firstError ?? f.firstError });
    }
    return { rows, firebaseStartMillis: firebase.startMillis, authsimStartMillis: authsim.startMillis };
  } finally {
    agent.destroy();
    await authsim?.stop();
    await firebase.stop();
  }
}
