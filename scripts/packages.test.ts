import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

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
const CHROMIUM_PATH = "/usr/bin/chromium";

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

const CHECK_MJS = `
import assert from "node:assert/strict";
import { createFakeProvider } from "@authsim/fake-provider";
import { fakeProviderHandlers } from "@authsim/fake-provider/msw";
import { StackClientApp } from "@authsim/sdk";
import { manualClock } from "@authsim/sdk/runtime";
import { knownErrorCodes } from "@authsim/sdk/contract";
import { devProjectSeed as dev, internalProjectSeed as internal } from "@authsim/fixtures";
import { StackProvider } from "@authsim/react";
import { setupServer } from "msw/node";
import { StackClientApp as PublishedClientApp } from "@stackframe/js";

assert.equal(typeof StackProvider, "function");
assert.ok(knownErrorCodes.length > 10);

// In process: our SDK against createFakeProvider.
const clock = manualClock(Date.UTC(2026, 0, 1));
const provider = createFakeProvider({ clock });
const app = new StackClientApp({ baseUrl: "http://fake", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, tokenStore: "memory", fetch: provider.fetch, clock });
const ours = await app.signUpWithCredential({ email: "a@example.com", password: "password-123", noRedirect: true });
assert.equal(ours.status, "ok", JSON.stringify(ours));

// An internal user's owned project comes with a working admin app (registered by the package's entry, not imported by
// the client app: sdk/src/client/owned-projects.ts).
const owner = new StackClientApp({ baseUrl: "http://fake", projectId: internal.id, publishableClientKey: internal.keys.publishable_client_key, tokenStore: "memory", fetch: provider.fetch, clock });
assert.equal((await owner.signUpWithCredential({ email: "owner@example.com", password: "password-123", noRedirect: true, noVerificationCallback: true })).status, "ok");
const ownerUser = await owner.getUser({ or: "throw" });
const team = await ownerUser.createTeam({ displayName: "Owners" });
const created = await ownerUser.createProject({ displayName: "Owned", teamId: team.id });
assert.equal((await created.app.getProject()).displayName, "Owned");
assert.deepEqual((await ownerUser.listOwnedProjects()).map((p) => p.id), [created.id]);

// The published kit, unchanged, with the emulator behind msw.
const handlers = fakeProviderHandlers({ baseUrl: "https://api.stack-auth.test" });
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: "error" });
try {
  const published = new PublishedClientApp({ baseUrl: "https://api.stack-auth.test", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, tokenStore: "memory", noAutomaticPrefetch: true });
  // Outside a browser the kit cannot derive the verification link's URL: it must be given (README).
  const result = await published.signUpWithCredential({ email: "published@example.com", password: "password-123", verificationCallbackUrl: "http://localhost:3000/handler/email-verification", noRedirect: true });
  assert.equal(result.status, "ok", JSON.stringify(result));
  const users = handlers.provider.store.read.users;
  assert.ok([...users.values()].some((u) => JSON.stringify(u).includes("published@example.com")));
} finally {
  server.close();
}
console.log("plain node: ok");
`;

const CONSUMER_TS = `
import { createFakeProvider, type FakeProvider, type SentEmailRecord } from "@authsim/fake-provider";
import { fakeProviderHandlers, type FakeProviderHandlers } from "@authsim/fake-provider/msw";
import { StackClientApp, StackServerApp, type StackAdminApp } from "@authsim/sdk";
import { manualClock, type ManualClock } from "@authsim/sdk/runtime";
import { devProjectSeed as dev, loadFixture } from "@authsim/fixtures";
import { StackProvider, useUser } from "@authsim/react";
import { urlTarget, type Target } from "@authsim/conformance";
import { createAuthsim, signIn, type SignedInUser } from "authsim/playwright";
import type { BrowserContext } from "playwright-core";

const clock: ManualClock = manualClock(Date.UTC(2026, 0, 1));
const provider: FakeProvider = createFakeProvider({ clock });
const app = new StackClientApp({ baseUrl: "http://fake", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, tokenStore: "memory", fetch: provider.fetch, clock });
const server = new StackServerApp({ baseUrl: "http://fake", projectId: dev.id, publishableClientKey: dev.keys.publishable_client_key, secretServerKey: dev.keys.secret_server_key, tokenStore: "memory", fetch: provider.fetch });
const handlers: FakeProviderHandlers = fakeProviderHandlers({ baseUrl: "https://api.stack-auth.test" });
const target: Target = urlTarget({ baseUrl: "http://127.0.0.1:8102", hasControls: true });
export async function flow(): Promise<SentEmailRecord> {
  await app.signUpWithCredential({ email: "a@example.com", password: "password-123", noRedirect: true });
  await server.listUsers();
  await loadFixture({ projects: [] }, { baseUrl: "http://fake", fetch: provider.fetch, emulator: true });
  return await provider.outbox.waitFor({ to: "a@example.com" });
}
// Owned projects are typed with the admin app itself (the client declares the type, the admin layer merges it in).
export async function ownedAdminApps(): Promise<StackAdminApp[]> {
  const user = await app.getUser({ or: "throw" });
  return (await user.listOwnedProjects?.())?.map((project) => project.app) ?? [];
}
export const parts = [StackProvider, useUser, handlers, target] as const;
export async function signedIn(context: BrowserContext): Promise<[SignedInUser, string]> {
  const user = await signIn(context, { email: "ada@example.com", password: "password-123" });
  return [user, await createAuthsim({ url: "http://127.0.0.1:8102" }).otpCode("ada@example.com")];
}
`;

/** What a CI job runs under \`authsim exec\`: it reaches the emulator through the env lines, then exits with \`code\`. */
const execScript = (code: number) => `
const r = await fetch(process.env.STACK_API_URL + "/api/v1/projects/current", { headers: {
  "x-stack-project-id": process.env.STACK_PROJECT_ID, "x-stack-access-type": "client",
  "x-stack-publishable-client-key": process.env.STACK_PUBLISHABLE_CLIENT_KEY } });
console.log("exec: project " + r.status + " " + (await r.json()).id + " parent " + process.ppid);
process.exit(${code});
`;

const SIGN_UP_MJS = `
const r = await fetch(process.env.STACK_API_URL + "/api/v1/auth/password/sign-up", { method: "POST", headers: {
  "content-type": "application/json", "x-stack-project-id": process.env.STACK_PROJECT_ID, "x-stack-access-type": "client",
  "x-stack-publishable-client-key": process.env.STACK_PUBLISHABLE_CLIENT_KEY },
  body: JSON.stringify({ email: "new@example.com", password: "password-123", verification_callback_url: "http://localhost:3000/handler/email-verification" }) });
console.log("sign-up: " + r.status + " " + r.headers.get("x-stack-known-error"));
`;

// A Playwright test of an app on our React bindings (the emulator's hosted app): signed in by the helper, no sign-in page.
const PLAYWRIGHT_MJS = `
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { signIn } from "authsim/playwright";
const browser = await chromium.launch({ executablePath: "${CHROMIUM_PATH}", args: ["--no-sandbox", "--headless", "--disable-gpu"] });
try {
  const context = await browser.newContext();
  const user = await signIn(context, { email: "ada@example.com", displayName: "Ada Lovelace" });
  const page = await context.newPage();
  await page.goto(process.env.AUTHSIM_URL + "/handler/account-settings");
  await page.getByRole("heading", { name: "Account Settings" }).first().waitFor();
  await page.goto(process.env.AUTHSIM_URL + "/app");
  const whoami = page.getByTestId("whoami");
  await whoami.filter({ hasText: "Signed in as" }).waitFor();
  assert.equal(await whoami.textContent(), "Signed in as Ada Lovelace");
  console.log("playwright: signed in as " + user.id);
} finally {
  await browser.close();
}
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noPropertyAccessFromIndexSignature: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: ["node"],
    lib: ["ES2023", "DOM"],
  },
  files: ["consumer.ts"],
};

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
