import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import type { Plugin } from "vite";

/**
 * Node-only: a build's own account of what it read. A bundle imports files outside its directory (the dashboard takes
 * the CLI's env-line helper and the hosted pages' config), and a hand-kept list of them goes stale the day someone
 * adds an import. So the build records its module graph next to its output, and the freshness check
 * (ensure-built.ts) reads it back: whatever the bundle imported is watched, with nothing to keep in sync.
 */
export const INPUTS_FILE = "inputs.json";

/** Kept out of the list: virtual modules (`\0…`) have no file, and npm installs packages with fixed old mtimes. */
const isProjectFile = (id: string): boolean =>
  !id.startsWith("\0") && isAbsolute(id) && !id.split(/[\\/]/).includes("node_modules");

/** A Vite plugin that writes the build's input files to `<outDir>/inputs.json`. */
export function recordInputs(): Plugin {
  return {
    name: "authsim-record-inputs",
    apply: "build",
    generateBundle(options) {
      const outDir = options.dir;
      if (outDir === undefined) return;
      // Ids may carry a query (`?inline`, `?url`): the file is the part before it.
      const files = new Set([...this.getModuleIds()].map((id) => id.split("?")[0]!).filter(isProjectFile));
      // Relative to the output, so a moved checkout still reads right; the scratch build directory is a sibling of
      // the final one (ensure-built.ts), so the relative paths hold after the move into place.
      const list = [...files].map((f) => relative(outDir, f)).sort();
      this.emitFile({ type: "asset", fileName: INPUTS_FILE, source: `${JSON.stringify(list, null, 2)}\n` });
    },
  };
}

/**
 * The files a build in `dist` recorded, absolute; null when there is no readable record or a recorded file is gone
 * (a build from before recording, or a moved-away file): either way the build is stale.
 */
export async function recordedInputs(dist: string): Promise<string[] | null> {
  let list: unknown;
  try {
    list = JSON.parse(await readFile(join(dist, INPUTS_FILE), "utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(list) || !list.every((f): f is string => typeof f === "string")) return null;
  const files = list.map((f) => resolve(dist, f));
  return files.every((f) => existsSync(f)) ? files : null;
}
