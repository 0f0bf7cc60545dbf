import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Runs the real dev server (src/cli.ts, what `npm start` runs) on a free loopback port and waits for its banner: the
 * browser test drives the dashboard exactly as a developer gets it, build-on-start and --seed included.
 */
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

export interface StartedCli {
  url: string;
  banner: string;
  stop(): Promise<void>;
}

export async function startCli(args: readonly string[], timeoutMillis = 60_000): Promise<StartedCli> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", cli, "--port", "0", ...args], {
    cwd: repoRoot,
    env: { ...process.env, INIT_CWD: repoRoot },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The dev server did not start within ${timeoutMillis} ms:\n${output}`)), timeoutMillis);
    const check = () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      // The banner is printed in one write; wait for its last line before reading it.
      if (match && /Dashboard: /.test(output)) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`The dev server exited with ${String(code)}:\n${output}`));
    });
  });
  return {
    url,
    get banner() {
      return output;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        // Only the process this harness started, by its own handle (SIGTERM: the CLI saves and exits).
        child.kill("SIGTERM");
      }),
  };
}
