import { existsSync } from "node:fs";
import { readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { dashboardRoot, dashboardViteConfig } from "./vite.config.ts";

/**
 * Node-only: builds the dashboard when its output is missing or older than its sources, so `npm start` always serves
 * what the sources say without a separate build step. A build goes to a scratch directory first and is then moved
 * into place, so a server never serves half a build and two servers starting at once do not interleave their files.
 */
export const DASHBOARD_DIST = join(dashboardRoot, "dist");
const SOURCES = ["src", "index.html", "vite.config.ts"];

/** The newest modification time (ms) of the files under `paths`, or 0 when there are none. */
export async function newestMtime(paths: readonly string[]): Promise<number> {
  let newest = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const info = await stat(path);
    if (!info.isDirectory()) {
      newest = Math.max(newest, info.mtimeMs);
      continue;
    }
    const entries = await readdir(path, { recursive: true, withFileTypes: true });
    for (const entry of entries) {
      if (entry.isFile()) newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
    }
  }
  return newest;
}

/** Whether `distDir` must be (re)built from `sourcePaths`: no index.html, or a source changed after it was written. */
export async function needsBuild(distDir: string, sourcePaths: readonly string[]): Promise<boolean> {
  const index = join(distDir, "index.html");
  if (!existsSync(index)) return true;
  return (await newestMtime(sourcePaths)) > (await stat(index)).mtimeMs;
}

export async function buildDashboard(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build(dashboardViteConfig(outDir));
}

export type EnsureResult = { built: boolean; millis: number; dist: string };

/** Builds into DASHBOARD_DIST if needed; `now` measures the build for the banner (a real-time diagnostic). */
export async function ensureDashboardBuilt(now: () => number = () => performance.now()): Promise<EnsureResult> {
  const started = now();
  const sources = SOURCES.map((s) => join(dashboardRoot, s));
  if (!(await needsBuild(DASHBOARD_DIST, sources))) return { built: false, millis: 0, dist: DASHBOARD_DIST };
  const scratch = `${DASHBOARD_DIST}.building-${process.pid}`;
  try {
    await buildDashboard(scratch);
    await rm(DASHBOARD_DIST, { recursive: true, force: true });
    await rename(scratch, DASHBOARD_DIST);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { built: true, millis: Math.round(now() - started), dist: DASHBOARD_DIST };
}
