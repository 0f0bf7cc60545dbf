import { existsSync } from "node:fs";
import { readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { recordedInputs } from "./recorded-inputs.ts";

/**
 * Node-only: builds a browser bundle the dev server ships (the dashboard, the hosted handler pages) when its output
 * is missing or older than its sources, so `npm start` always serves what the sources say without a separate build
 * step. A build goes to a scratch directory first and is then moved into place, so a server never serves half a
 * build and two servers starting at once do not interleave their files.
 */
export interface Bundle {
  /** For messages: "dashboard", "hosted pages". */
  name: string;
  /** Where the built files live (index.html and assets/). */
  dist: string;
  /** Files and directories whose change makes the build stale (its own sources and the workspace code it bundles). */
  sources: readonly string[];
  /**
   * Whether the build records its module graph (recorded-inputs.ts): then every file it imported counts as a source
   * too, wherever it lives, and a build without the record is stale.
   */
  recordsInputs?: boolean;
  build(outDir: string): Promise<void>;
}

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
      // A test beside the code is not part of the bundle; touching it must not cost a rebuild.
      if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
        newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
    }
  }
  return newest;
}

/**
 * Whether `distDir` must be (re)built from `sourcePaths`: no index.html, or a source changed after it was written.
 * With `recordsInputs`, the files the build recorded are sources too, and a missing or broken record means stale.
 */
export async function needsBuild(
  distDir: string,
  sourcePaths: readonly string[],
  options: { recordsInputs?: boolean } = {},
): Promise<boolean> {
  const index = join(distDir, "index.html");
  if (!existsSync(index)) return true;
  let paths = sourcePaths;
  if (options.recordsInputs) {
    const recorded = await recordedInputs(distDir);
    if (recorded === null) return true;
    paths = [...sourcePaths, ...recorded];
  }
  return (await newestMtime(paths)) > (await stat(index)).mtimeMs;
}

const ignoring =
  (...codes: string[]) =>
  (error: unknown): void => {
    if (!(error instanceof Error && "code" in error && codes.includes(String(error.code)))) throw error;
  };

export type EnsureResult = { built: boolean; millis: number; dist: string };

/** Builds `bundle` into its dist if needed; `now` measures the build for the banner (a real-time diagnostic). */
export async function ensureBuilt(bundle: Bundle, now: () => number = () => performance.now()): Promise<EnsureResult> {
  const started = now();
  if (!(await needsBuild(bundle.dist, bundle.sources, bundle))) return { built: false, millis: 0, dist: bundle.dist };
  const scratch = `${bundle.dist}.building-${process.pid}`;
  const aside = `${bundle.dist}.old-${process.pid}`;
  try {
    await bundle.build(scratch);
    // Another server that started at the same time may have finished first: its build is as fresh, keep it.
    if (await needsBuild(bundle.dist, bundle.sources, bundle)) {
      // Moved aside rather than deleted first, so the window without a build is two renames, not a recursive delete.
      await rename(bundle.dist, aside).catch(ignoring("ENOENT"));
      // A concurrent server may have put its build in between the two renames: then that one is served.
      await rename(scratch, bundle.dist).catch(ignoring("ENOTEMPTY", "EEXIST"));
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
    await rm(aside, { recursive: true, force: true });
  }
  return { built: true, millis: Math.round(now() - started), dist: bundle.dist };
}

/** The banner's words for one bundle: built, up to date, or why not (the server then shows a placeholder). */
export async function ensureBuiltNote(bundle: Bundle): Promise<string> {
  try {
    const result = await ensureBuilt(bundle);
    return result.built ? `built in ${result.millis} ms` : "up to date";
  } catch (error) {
    return `not built (${error instanceof Error ? error.message : String(error)})`;
  }
}
