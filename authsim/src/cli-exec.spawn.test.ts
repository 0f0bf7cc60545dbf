import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import type { ReadyInfo } from "./ready-info.ts";

/**
 * `authsim exec`, `--ready-json` and `--config` on the real dev server (src/cli.ts) as a child process: what a CI job
 * or a tool sees. Each start costs a second or two, so each test checks several things of one run.
 */
const dir = mkdtempSync(join(tmpdir(), "authsim-exec-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cliPath = fileURLToPath(new URL("./cli.ts", import.meta.url));

interface Started {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** The CLI with `args`; `whileRunning` sees its output as it comes (to signal it), and the answer is how it ended. */
function runCli(
  args: readonly string[],
  whileRunning?: (out: { stdout: string; pid: number }) => void,
): Promise<Started> {
  const child = spawn(process.execPath, ["--conditions=@authsim/source", "--import", "tsx", cliPath, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const seen = { stdout: "", stderr: "" };
  child.stdout.on("data", (chunk: Buffer) => {
    seen.stdout += chunk.toString();
    whileRunning?.({ stdout: seen.stdout, pid: child.pid! });
  });
  child.stderr.on("data", (chunk: Buffer) => (seen.stderr += chunk.toString()));
  // Should it hang, stop it (only this child) rather than leave it running: the test then fails on what it printed.
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) => child.once("exit", (code) => (clearTimeout(timer), resolve({ ...seen, code }))));
}

/** Whether a process is still there (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const script = (body: string) => ["node", "--input-type=module", "-e", body];

describe("authsim exec", () => {
  it("runs the command with the dev project's env once the emulator answers, and exits with its status", async () => {
    const body = `
      const r = await fetch(process.env.STACK_API_URL + "/api/v1/projects/current", { headers: {
        "x-stack-project-id": process.env.STACK_PROJECT_ID, "x-stack-access-type": "client",
        "x-stack-publishable-client-key": process.env.NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY } });
      console.log(JSON.stringify({ status: r.status, id: (await r.json()).id, own: process.env.AUTHSIM_URL === process.env.STACK_API_URL }));
      process.exit(7);`;
    const run = await runCli(["exec", "--port", "0", "--", ...script(body)]);
    expect(run.code, run.stderr).toBe(7);
    // The command's output is all of stdout: the banner went to stderr.
    expect(JSON.parse(run.stdout.trim())).toEqual({ status: 200, id: devProjectSeed.id, own: true });
    expect(run.stderr).toContain("listening on http://127.0.0.1:");
  });

  it("passes a stop signal to the command, waits for it, saves --snapshot, and leaves nothing running", async () => {
    const file = join(dir, "exec-snapshot.json");
    let signalled = false;
    const run = await runCli(
      [
        "exec",
        "--port",
        "0",
        "--snapshot",
        file,
        "--",
        ...script(`console.log("child " + process.pid); setInterval(() => {}, 1000);`),
      ],
      ({ stdout, pid }) => {
        if (!signalled && /child \d+/.test(stdout)) {
          signalled = true;
          process.kill(pid, "SIGTERM");
        }
      },
    );
    const childPid = Number(/child (\d+)/.exec(run.stdout)?.[1]);
    // SIGTERM ended the command: a shell's 128 + 15.
    expect(run.code, run.stderr).toBe(143);
    expect(alive(childPid)).toBe(false);
    expect(existsSync(file)).toBe(true);
  });

  it("names a command that cannot be run (127), and refuses exec without a command", async () => {
    const missing = await runCli(["exec", "--port", "0", "--", "authsim-no-such-command-xyz"]);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain("could not run authsim-no-such-command-xyz: command not found");
    const none = await runCli(["exec", "--port", "0"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("authsim exec needs a command");
  });
});

describe("--ready-json", () => {
  it("prints one JSON line with the picked port, the project and its keys once the server answers", async () => {
    let ready: ReadyInfo | undefined;
    const run = await runCli(["--port", "0", "--ready-json"], ({ stdout, pid }) => {
      if (ready || !stdout.includes("\n")) return;
      ready = JSON.parse(stdout.slice(0, stdout.indexOf("\n"))) as ReadyInfo;
      void fetch(`${ready.url}/api/v1`).then((r) => (expect(r.status).toBe(200), process.kill(pid, "SIGTERM")));
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split("\n")).toHaveLength(1);
    expect(ready!.port).toBeGreaterThan(0);
    expect(ready).toMatchObject({
      url: `http://127.0.0.1:${ready!.port}`,
      ports: { api: ready!.port },
      projectId: devProjectSeed.id,
      secretServerKey: devProjectSeed.keys.secret_server_key,
    });
    expect(ready!.env.STACK_API_URL).toBe(ready!.url);
  });
});

describe("--config", () => {
  const signUp = `
    const r = await fetch(process.env.STACK_API_URL + "/api/v1/auth/password/sign-up", { method: "POST", headers: {
      "content-type": "application/json", "x-stack-project-id": process.env.STACK_PROJECT_ID, "x-stack-access-type": "client",
      "x-stack-publishable-client-key": process.env.STACK_PUBLISHABLE_CLIENT_KEY },
      body: JSON.stringify({ email: "new@example.com", password: "password-123", verification_callback_url: "http://localhost:3000/handler/email-verification" }) });
    console.log(r.status, r.headers.get("x-stack-known-error"));`;

  it("applies a TypeScript config file (type imports and all) as a pushed branch config: sign-up disabled", async () => {
    const file = join(dir, "stack.config.ts");
    writeFileSync(
      file,
      `import type { StackConfig } from "@stackframe/js";\nconst allow: boolean = false;\nexport const config: StackConfig = { auth: { allowSignUp: allow } };\n`,
    );
    const run = await runCli(["exec", "--port", "0", "--config", file, "--", ...script(signUp)]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe("400 SIGN_UP_NOT_ENABLED");
    expect(run.stderr).toContain(`Config file ${file} pushed to the dev project's branch config.`);
  });

  it("stops the start with the file and the reason for a file that does not load, or whose config is refused", async () => {
    const broken = join(dir, "broken.config.ts");
    writeFileSync(broken, "export const config = { auth: { allowSignUp: false }\n");
    const notLoading = await runCli(["--port", "0", "--config", broken]);
    expect(notLoading.code).toBe(2);
    expect(notLoading.stderr).toContain(`Could not load the config file ${broken}:`);

    const invalid = join(dir, "invalid.config.json");
    writeFileSync(invalid, JSON.stringify({ "auth.allowSignUp": "sometimes" }));
    const refused = await runCli(["--port", "0", "--config", invalid]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`The config file ${invalid} was refused:`);
    expect(refused.stderr).toContain("auth.allowSignUp");
  });
});

describe("--config --watch", () => {
  it("pushes the file again when it changes; a broken save is reported and the last good config stays", async () => {
    const file = join(dir, "watched.config.json");
    writeFileSync(file, JSON.stringify({ auth: { allowSignUp: false } }));
    const child = spawn(
      process.execPath,
      [
        "--conditions=@authsim/source",
        "--import",
        "tsx",
        cliPath,
        "--port",
        "0",
        "--ready-json",
        "--config",
        file,
        "--watch",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      await expect.poll(() => stdout.includes("\n"), { timeout: 30_000 }).toBe(true);
      const { url } = JSON.parse(stdout.slice(0, stdout.indexOf("\n"))) as ReadyInfo;
      let n = 0;
      const signUp = async () => {
        const response = await fetch(`${url}/api/v1/auth/password/sign-up`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-stack-project-id": devProjectSeed.id,
            "x-stack-access-type": "client",
            "x-stack-publishable-client-key": devProjectSeed.keys.publishable_client_key,
          },
          body: JSON.stringify({
            email: `watch-${++n}@example.com`,
            password: "password-123",
            verification_callback_url: "http://localhost:3000/handler/email-verification",
          }),
        });
        return response.headers.get("x-stack-known-error") ?? String(response.status);
      };
      expect(await signUp()).toBe("SIGN_UP_NOT_ENABLED");
      writeFileSync(file, JSON.stringify({ auth: { allowSignUp: true } }));
      await expect.poll(signUp, { timeout: 10_000 }).toBe("200");
      expect(stderr).toContain(`Config file ${file} pushed again.`);
      writeFileSync(file, "{ not json");
      await expect.poll(() => stderr, { timeout: 10_000 }).toContain("(the previous config stays)");
      expect(stderr).toContain(`Could not load the config file ${file}:`);
      expect(await signUp()).toBe("200");
    } finally {
      // Only the server this test started, by its own handle.
      child.kill("SIGTERM");
      await exited;
    }
  });
});

describe("the command line's refusals", () => {
  it("names an unknown option", async () => {
    const run = await runCli(["--port", "0", "--no-such-flag"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option --no-such-flag.");
  });
});
