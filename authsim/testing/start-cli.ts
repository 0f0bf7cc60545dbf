import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Runs the real dev server (authsim/src/cli.ts, what `npm start` runs, from its sources) on a free loopback port and waits for its banner: browser
 * tests drive the dashboard and the hosted pages exactly as a developer gets them, build-on-start and --seed included.
 * It lives in the package whose CLI it starts (`authsim/testing`), so no package reaches into another's sources.
 */
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

export interface StartedCli {
  /** http://127.0.0.1:<port>, as the banner names it. */
  url: string;
  /** Everything the server printed so far. */
  readonly banner: string;
  /** The server's process id (to read its memory from /proc). */
  readonly pid: number;
  stop(): Promise<void>;
}

export async function startCli(args: readonly string[] = [], timeoutMillis = 60_000): Promise<StartedCli> {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--conditions=@authsim/source", "--import", "tsx", cli, "--port", "0", ...args],
    {
      cwd: repoRoot,
      env: { ...process.env, INIT_CWD: repoRoot },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The dev server did not start within ${timeoutMillis} ms:\n${output}`)),
      timeoutMillis,
    );
    const check = () => {
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      // The banner is printed in one write; wait for its env lines before reading it.
      if (match && /STACK_PROJECT_ID=/.test(output)) {
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
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        // Only the process this harness started, by its own handle (SIGTERM: the CLI saves and exits).
        child.kill("SIGTERM");
      }),
  };
}
