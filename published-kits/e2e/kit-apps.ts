import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The two apps on the published kits (../react-vite, ../next): each has its own package.json and lockfile, outside the
 * monorepo's workspaces, installed with `npm ci` into its own node_modules and built once — both only when missing or
 * stale. A stamp (a hash of what went in) records each install and build, so a test run after the first reuses them.
 * No workspace imports here: vitest loads the global setup without the workspace's "@authsim/source" condition.
 */
export const kitsRoot = fileURLToPath(new URL("../", import.meta.url));

export type KitAppName = "react-vite" | "next";

export interface KitApp {
  name: KitAppName;
  dir: string;
  /** Where the build goes (gitignored in ../.gitignore). */
  outDir: string;
  /** The build's commands in order, each run with this Node in the app's folder. */
  build: readonly (readonly string[])[];
  /** The build's environment beyond ours. */
  buildEnv?: Record<string, string>;
}

/**
 * Only for `next build`, which loads the server module while it collects the pages: every page is dynamic, so these
 * values are never used (and never in the build); the running app gets the test's emulator and the dev project's keys.
 */
const buildTimeEnv = {
  STACK_API_URL: "http://127.0.0.1:1",
  STACK_PROJECT_ID: "00000000-0000-4000-8000-000000000000",
  STACK_PUBLISHABLE_CLIENT_KEY: "pck_build_time_placeholder",
  STACK_SECRET_SERVER_KEY: "ssk_build_time_placeholder",
};

export const kitApps: Record<KitAppName, KitApp> = {
  // Vite does not typecheck; tsc first, so the app's use of the kit's types is checked as `next build` checks it.
  "react-vite": {
    name: "react-vite",
    dir: join(kitsRoot, "react-vite"),
    outDir: join(kitsRoot, "react-vite/dist"),
    build: [
      ["node_modules/typescript/bin/tsc", "-p", "."],
      ["node_modules/vite/bin/vite.js", "build"],
    ],
  },
  next: {
    name: "next",
    dir: join(kitsRoot, "next"),
    outDir: join(kitsRoot, "next/dist"),
    build: [["node_modules/next/dist/bin/next", "build"]],
    buildEnv: buildTimeEnv,
  },
};

/**
 * The environment for npm and the builds: without the `npm_*` variables of the `npm test` that runs us (they name the
 * monorepo's root as the prefix and its config), so `npm ci` installs this app's lockfile into this app's folder.
 */
export function isolatedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^npm_/i.test(key) && key !== "INIT_CWD") env[key] = value;
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
}

export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`${command} ${args.join(" ")} in ${cwd} exited with ${String(code)}:\n${output.slice(-4000)}`),
          ),
    );
  });
}

const hash = (parts: readonly (string | Buffer)[]) =>
  parts.reduce((h, part) => h.update(part).update("\0"), createHash("sha256")).digest("hex");

/** Every source file of the app (not node_modules, not the build, not what Next.js writes itself). */
async function sourceFiles(dir: string): Promise<string[]> {
  const skip = new Set(["node_modules", "dist", "next-env.d.ts", ".authsim-prepare.lock"]);
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .filter(
      (file) =>
        !relative(dir, file)
          .split("/")
          .some((part) => skip.has(part)),
    )
    .sort();
}

async function readStamp(file: string): Promise<string | undefined> {
  return existsSync(file) ? (await readFile(file, "utf8")).trim() : undefined;
}

/** `npm ci` when node_modules is missing or was installed from another lockfile (or by another Node). */
export async function ensureInstalled(app: KitApp): Promise<{ installed: boolean; stamp: string }> {
  const lock = await readFile(join(app.dir, "package-lock.json"));
  const stamp = hash([process.version, await readFile(join(app.dir, "package.json")), lock]);
  const stampFile = join(app.dir, "node_modules/.authsim-install-stamp");
  if ((await readStamp(stampFile)) === stamp) return { installed: false, stamp };
  await run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], app.dir, isolatedEnv());
  await writeFile(stampFile, `${stamp}\n`);
  return { installed: true, stamp };
}

/**
 * Builds the app when its build is missing or older than its sources and installed packages. Safe to reuse: neither
 * build holds the emulator's address or keys (both apps read them when they run), only the sources hashed here.
 */
export async function ensureBuilt(app: KitApp, installStamp: string): Promise<{ built: boolean }> {
  const stampFile = join(app.outDir, ".authsim-build-stamp");
  if ((await readStamp(stampFile)) === (await buildStamp(app, installStamp))) return { built: false };
  for (const command of app.build) await run(process.execPath, command, app.dir, isolatedEnv(app.buildEnv));
  // Hashed again: `next build` may complete tsconfig.json on its first run.
  await writeFile(stampFile, `${await buildStamp(app, installStamp)}\n`);
  return { built: true };
}

async function buildStamp(app: KitApp, installStamp: string): Promise<string> {
  const files = await sourceFiles(app.dir);
  return hash([
    installStamp,
    ...(await Promise.all(files.map(async (file) => hash([relative(app.dir, file), await readFile(file)])))),
  ]);
}

/**
 * The app's install and build, each only when missing or stale, by one process at a time: the global setup starts them
 * in the background and each test file waits for its app (or does the work itself when no one else is doing it, and
 * then reports what failed). The lock is a folder holding the owner's pid; one whose owner has died is taken over.
 */
export async function prepareApp(app: KitApp): Promise<{ installed: boolean; built: boolean }> {
  const lock = join(app.dir, ".authsim-prepare.lock");
  for (let pidless = 0; ;) {
    try {
      await mkdir(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = await readStamp(join(lock, "pid")).catch(() => undefined);
      pidless = pid === undefined ? pidless + 1 : 0;
      // A lock with no pid after 40 looks (10 s) was left by a process that died as it took it.
      if ((pid !== undefined && !ownerAlive(pid)) || pidless > 40) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      await writeFile(join(lock, "pid"), `${process.pid}\n`);
      const { stamp, installed } = await ensureInstalled(app);
      const { built } = await ensureBuilt(app, stamp);
      return { installed, built };
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}

/** Whether the process that took a lock still runs. */
function ownerAlive(pid: string): boolean {
  try {
    process.kill(Number(pid), 0); // signal 0: only asks whether the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A free loopback port (for `next start`, which takes a fixed one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
