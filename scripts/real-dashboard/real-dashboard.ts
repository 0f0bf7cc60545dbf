import { spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { replaceSentinels, sentinelValues, type DashboardSettings } from "./sentinels.ts";

/**
 * Where build.sh leaves the real dashboard (DASH_DIR, default /tmp/dash), and how to run that build against authsim:
 * a copy of the built app per port with the settings written in (as the real Docker entrypoint does), served by
 * `next start`. Nothing here is part of a package; the browser test and start.ts use it.
 */
export const dashDir = process.env.DASH_DIR ?? "/tmp/dash";
export const appDir = join(dashDir, "src/apps/dashboard");
export const defaultMirror = process.env.STACK_MIRROR ?? "/work/.mirror/stack-auth+stack-auth/repo";

/** Why the real dashboard cannot run here, or null when its build is present. */
export function missingBuild(mirror = defaultMirror): string | null {
  // Opt-in: the walk takes minutes, far past what `npm test` may spend, and a build left in /tmp by an earlier run
  // must not turn it on by itself (CI runs on machines where one may be).
  if (process.env.AUTHSIM_REAL_DASHBOARD !== "1") return "AUTHSIM_REAL_DASHBOARD=1 is not set (the walk takes minutes)";
  if (!existsSync(mirror)) return `the real repository is not at ${mirror} (fetch github:stack-auth/stack-auth)`;
  if (!existsSync(join(dashDir, "built-commit")) || !existsSync(join(appDir, ".next"))) {
    return `the real dashboard is not built in ${appDir} (run scripts/real-dashboard/build.sh)`;
  }
  return null;
}

export interface RunningDashboard {
  url: string;
  readonly output: string;
  stop(): Promise<void>;
}

/** Copies the build into run-<port>/ with the settings written in: the build itself stays reusable for any port. */
function prepareRun(settings: DashboardSettings): string {
  const run = join(dashDir, `run-${settings.port}`);
  rmSync(run, { recursive: true, force: true });
  mkdirSync(run, { recursive: true });
  // The build cache is only for rebuilding.
  cpSync(join(appDir, ".next"), join(run, ".next"), {
    recursive: true,
    filter: (src) => !src.startsWith(join(appDir, ".next/cache")),
  });
  for (const file of ["public", "package.json", "next.config.mjs"]) {
    cpSync(join(appDir, file), join(run, file), { recursive: true });
  }
  symlinkSync(join(appDir, "node_modules"), join(run, "node_modules"));
  const values = sentinelValues(settings);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(js|json|html|rsc|body|meta|mjs|cjs)$/.test(name)) {
        const text = readFileSync(path, "utf8");
        if (text.includes("STACK_ENV_VAR_SENTINEL")) writeFileSync(path, replaceSentinels(text, values));
      }
    }
  };
  walk(join(run, ".next"));
  return run;
}

export async function startRealDashboard(
  settings: DashboardSettings & { secretServerKey: string; superSecretAdminKey: string },
  readyTimeoutMillis = 120_000,
): Promise<RunningDashboard> {
  const run = prepareRun(settings);
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-p", String(settings.port), "-H", "localhost"],
    {
      cwd: run,
      env: {
        ...process.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        STACK_SECRET_SERVER_KEY: settings.secretServerKey,
        STACK_SUPER_SECRET_ADMIN_KEY: settings.superSecretAdminKey,
        ...sentinelValues(settings),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`next start did not get ready in ${readyTimeoutMillis} ms:\n${output}`)),
      readyTimeoutMillis,
    );
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
    url: `http://localhost:${settings.port}`,
    get output() {
      return output;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        // Only the server this started, by its own handle.
        child.kill("SIGTERM");
      }),
  };
}
