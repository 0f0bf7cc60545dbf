import { spawn } from "node:child_process";
import { freePort, isolatedEnv, kitApps } from "./kit-apps.ts";
import { kitEnv, type RunningApp } from "./kit-flows.ts";

/**
 * The Next.js app on the published @stackframe/stack (../next), built once by the global setup, run with `next start`
 * on a free loopback port and the env lines `npm start` prints (and `extraEnv`: hosted mode's template).
 */
export async function startNext(apiUrl: string, extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  const app = kitApps.next;
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: app.dir,
      env: isolatedEnv({ ...kitEnv(apiUrl), ...extraEnv }),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`next start did not get ready within 60 s:\n${output}`)), 60_000);
    child.stdout.on("data", () => {
      if (/Ready in/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`next start exited with ${String(code)}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        // Only the server this test started, by its own handle.
        child.kill("SIGTERM");
      }),
  };
}
