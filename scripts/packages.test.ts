import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK_MJS,
  CHROMIUM_PATH,
  CONSUMER_TS,
  execScript,
  PLAYWRIGHT_MJS,
  SIGN_UP_MJS,
  TSCONFIG,
} from "./packages-app-files.ts";

/**
 * The packages as a user gets them (issue 16): every workspace package packed with `npm pack`, the tarballs installed
 * into a fresh app outside the repository (from npm's cache where it can: `--prefer-offline`), and there, with nothing
 * of the monorepo in reach: each package imported under plain `node`; a consumer file type-checked with strict flags;
 * `npx authsim` started and answering the API, the dashboard and the hosted sign-in; `npx authsim exec` running a
 * command and returning its status, `--port 0 --ready-json` and `--config` with a TypeScript config file; a Playwright
 * script signed in by `authsim/playwright`; `npx authsim-conformance` passing against it; the published
 * `@stackframe/js` signing up a user through `fakeProviderHandlers` behind msw.
 * Needs the build (`npm test` runs `npm run build` first).
 */
const repoRoot = fileURLToPath(new URL("../", import.meta.url));
const PACKAGES = ["sdk", "fixtures", "fake-provider", "react", "conformance", "authsim"] as const;
// The versions the monorepo is tested with, so the install is served from npm's cache.
const lock = JSON.parse(await readFile(join(repoRoot, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version?: string }>;
};
const locked = (name: string) => `${name}@${lock.packages[`node_modules/${name}`]?.version ?? "latest"}`;
const APP_DEPENDENCIES = [
  "typescript",
  "@types/node",
  "msw",
  "@stackframe/js",
  "react",
  "react-dom",
  "@types/react",
  "playwright-core",
].map(locked);

interface Run {
  code: number | null;
  output: string;
}

// The parent npm's variables (workspace, prefix, INIT_CWD …) would point the child npm back at the monorepo.
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(npm_|INIT_CWD$|VITEST|TEST$|NODE_OPTIONS$)/.test(name)),
  );

function run(command: string, args: readonly string[], cwd: string, timeoutMillis = 300_000): Promise<Run> {
  const child = spawn(command, args, { cwd, env: cleanEnv(), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill("SIGTERM"), timeoutMillis);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

interface Packed {
  name: string;
  filename: string;
  size: number;
  entryCount: number;
  files: { path: string }[];
}

const describeBuilt = PACKAGES.every((p) => existsSync(join(repoRoot, p, "dist"))) ? describe : describe.skip;

describeBuilt("the packages installed from their tarballs into an app outside the repository", () => {
  let dir: string;
  let app: string;
  let packed: Packed[];
  let cli: ChildProcess | undefined;
  let cliUrl: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "authsim-packages-"));
    const tarballs = join(dir, "tarballs");
    app = join(dir, "app");
    await mkdir(tarballs);
    await mkdir(app);
    const pack = await run(
      "npm",
      ["pack", "--json", "--pack-destination", tarballs, ...PACKAGES.flatMap((p) => ["-w", p])],
      repoRoot,
    );
    expect(pack.code, pack.output).toBe(0);
    packed = JSON.parse(pack.output.slice(pack.output.indexOf("["))) as Packed[];
    for (const p of packed) console.log(`${p.name}: ${(p.size / 1024).toFixed(1)} KiB packed, ${p.entryCount} files`);
    await writeFile(
      join(app, "package.json"),
      JSON.stringify({ name: "authsim-consumer", private: true, type: "module" }, null, 2),
    );
    const install = await run(
      "npm",
      [
        "install",
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        ...packed.map((p) => join(tarballs, p.filename)),
        ...APP_DEPENDENCIES,
      ],
      app,
      500_000,
    );
    expect(install.code, install.output).toBe(0);
  });

  afterAll(async () => {
    if (cli && cli.exitCode === null) {
      const exited = new Promise((resolve) => cli!.once("exit", resolve));
      // Only the server this test started: its process group (npx and the bin it runs).
      process.kill(-cli.pid!, "SIGTERM");
      await exited;
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("ship only what users need: no tests, e2e, test support or sources", () => {
    for (const p of packed) {
      const paths = p.files.map((f) => f.path);
      // The one suite file the conformance runner hands to vitest is a test file by name, and is meant to ship.
      const unwanted = paths.filter(
        (f) =>
          /\.test\.|\/e2e\/|test-support|\.tsbuildinfo|inputs\.json|^src\//.test(f) &&
          !f.startsWith("dist/suites/env-target.test."),
      );
      expect(unwanted, p.name).toEqual([]);
      expect(paths, p.name).toContain("LICENSE");
    }
  });

  it("import under plain node: the core, msw handlers, the SDK, fixtures, React bindings; the published kit signs up behind msw", async () => {
    await writeFile(join(app, "check.mjs"), CHECK_MJS);
    const result = await run(process.execPath, ["check.mjs"], app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("plain node: ok");
  });

  it("type-check in a consumer with strict, exactOptionalPropertyTypes and noPropertyAccessFromIndexSignature", async () => {
    await writeFile(join(app, "consumer.ts"), CONSUMER_TS);
    await writeFile(join(app, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    const result = await run(
      process.execPath,
      [join(app, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
      app,
    );
    expect(result.code, result.output).toBe(0);
  });

  it("`npx authsim` answers the API, the dashboard and the hosted sign-in, with nothing built or written at start but its code cache", async () => {
    const started = performance.now();
    // A process group of its own: npx runs the bin as a child, which a signal to npx alone would leave serving.
    cli = spawn("npx", ["--no-install", "authsim", "--port", "0"], {
      cwd: app,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let output = "";
    cli.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    cli.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    cliUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npx authsim did not start:\n${output}`)), 60_000);
      cli!.stdout!.on("data", () => {
        const match = /listening on (http:\/\/\S+)/.exec(output);
        if (match && /STACK_PROJECT_ID=/.test(output)) {
          clearTimeout(timer);
          resolve(match[1]!);
        }
      });
      cli!.once("exit", (code) => reject(new Error(`npx authsim exited with ${String(code)}:\n${output}`)));
    });
    console.log(`npx authsim: banner after ${(performance.now() - started).toFixed(0)} ms (npx included)`);
    expect(output).toContain("built with the package");
    const api = await fetch(`${cliUrl}/api/v1`);
    expect(api.status).toBe(200);
    const dashboard = await fetch(`${cliUrl}/`);
    const dashboardHtml = await dashboard.text();
    expect(dashboard.status).toBe(200);
    const asset = /src="(\/__emulator\/ui\/assets\/[^"]+\.js)"/.exec(dashboardHtml)?.[1];
    expect(asset, dashboardHtml).toBeDefined();
    expect((await fetch(`${cliUrl}${asset}`)).status).toBe(200);
    const signIn = await fetch(`${cliUrl}/handler/sign-in`);
    expect(signIn.status).toBe(200);
    expect(await signIn.text()).toContain("/__emulator/hosted/assets/");
    // Nothing was built into or written under the installed package.
    const installed = join(app, "node_modules/authsim/dist/ui");
    const run1 = await run("find", [installed, "-newer", join(app, "package.json"), "-type", "f"], app);
    expect(run1.output.trim(), "files written under node_modules/authsim after install").toBe("");
    // The one write: V8's compiled code of the bundle, for the next start (authsim/src/bundle-loader.ts), made once
    // the start's code has run and written without holding it up.
    const cacheDir = join(app, "node_modules/.cache/authsim");
    const cached = async () =>
      existsSync(cacheDir) ? (await readdir(cacheDir)).filter((name) => /^cli\.cjs-.*\.v8$/.test(name)) : [];
    for (let waited = 0; waited < 10_000 && (await cached()).length === 0; waited += 100)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await cached()).toEqual([expect.stringContaining(`-${process.version}-${process.arch}-`)]);
  });

  it("`npx authsim exec -- COMMAND` runs it against a fresh emulator, exits with its status, and leaves nothing running", async () => {
    await writeFile(join(app, "exec-ok.mjs"), execScript(0));
    await writeFile(join(app, "exec-fails.mjs"), execScript(3));
    const ok = await run("npx", ["--no-install", "authsim", "exec", "--port", "0", "--", "node", "exec-ok.mjs"], app);
    expect(ok.code, ok.output).toBe(0);
    expect(ok.output).toMatch(/exec: project 200 [0-9a-f-]{36} parent \d+/);
    const failing = await run(
      "npx",
      ["--no-install", "authsim", "exec", "--port", "0", "--", "node", "exec-fails.mjs"],
      app,
    );
    expect(failing.code, failing.output).toBe(3);
    // The command's parent was the emulator: gone once exec has returned.
    for (const output of [ok.output, failing.output]) {
      const emulatorPid = Number(/parent (\d+)/.exec(output)![1]);
      expect(() => process.kill(emulatorPid, 0)).toThrow();
    }
  });

  it("`npx authsim --port 0 --ready-json` prints one JSON line with the port it picked", async () => {
    const child = spawn("npx", ["--no-install", "authsim", "--port", "0", "--ready-json"], {
      cwd: app,
      env: cleanEnv(),
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let stdout = "";
        const timer = setTimeout(() => reject(new Error(`no ready line:\n${stdout}`)), 60_000);
        child.stdout.on("data", (chunk: Buffer) => {
          stdout += chunk.toString();
          if (stdout.includes("\n")) {
            clearTimeout(timer);
            resolve(stdout.slice(0, stdout.indexOf("\n")));
          }
        });
      });
      const ready = JSON.parse(line) as { url: string; port: number; projectId: string };
      expect(ready.port).toBeGreaterThan(0);
      expect(ready.url).toBe(`http://127.0.0.1:${ready.port}`);
      expect((await fetch(`${ready.url}/api/v1`)).status).toBe(200);
    } finally {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      // Only the server this test started: its process group (npx and the bin it runs).
      process.kill(-child.pid!, "SIGTERM");
      await exited;
    }
  });

  it("`--config` applies the Stack Auth CLI's config file: a TypeScript file disabling sign-up makes sign-up answer SIGN_UP_NOT_ENABLED", async () => {
    await writeFile(
      join(app, "stack.config.ts"),
      'import type { StackClientApp } from "@stackframe/js";\nexport const config = { auth: { allowSignUp: false } } satisfies Record<string, unknown>;\nexport type Unused = StackClientApp;\n',
    );
    await writeFile(join(app, "sign-up.mjs"), SIGN_UP_MJS);
    const result = await run(
      "npx",
      ["--no-install", "authsim", "exec", "--port", "0", "--config", "stack.config.ts", "--", "node", "sign-up.mjs"],
      app,
    );
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("sign-up: 400 SIGN_UP_NOT_ENABLED");
    await writeFile(join(app, "bad.config.ts"), "export const config = { auth: { allowSignUp: 'no' } };\n");
    const refused = await run("npx", ["--no-install", "authsim", "--port", "0", "--config", "bad.config.ts"], app);
    expect(refused.code, refused.output).toBe(2);
    expect(refused.output).toContain(
      `The config file ${join(app, "bad.config.ts")} was refused: auth.allowSignUp must be a \`boolean\` type`,
    );
  });

  it.skipIf(!existsSync(CHROMIUM_PATH))(
    "a Playwright test signs in with authsim/playwright and sees the protected page",
    async () => {
      await writeFile(join(app, "playwright.mjs"), PLAYWRIGHT_MJS);
      const result = await run(
        "npx",
        ["--no-install", "authsim", "exec", "--port", "0", "--", "node", "playwright.mjs"],
        app,
      );
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(/playwright: signed in as [0-9a-f-]{36}/);
    },
  );

  it("`npx authsim-conformance --base-url` passes against it and writes its reports", async () => {
    expect(cliUrl).toBeDefined();
    const result = await run("npx", ["--no-install", "authsim-conformance", "--base-url", cliUrl], app, 500_000);
    expect(result.code, result.output.slice(-4000)).toBe(0);
    expect(result.output).toMatch(/\d+ passed, 0 failed/);
    const report = JSON.parse(await readFile(join(app, "conformance-report.json"), "utf8")) as {
      totals: { passed: number; failed: number };
    };
    expect(report.totals.failed).toBe(0);
    expect(report.totals.passed).toBeGreaterThan(100);
  });
});
