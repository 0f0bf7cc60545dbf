import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Node-only: where the built pages live — `<package>/dist/ui/dashboard` and `<package>/dist/ui/hosted` — whether this
 * module runs from its source (the monorepo, `bundles/`) or from the package's build (`dist/bundles/`). The package root
 * is the nearest folder with a package.json, so both layouts name the same place.
 */
function packageRoot(from: string): string {
  let dir = dirname(fileURLToPath(from));
  while (!existsSync(join(dir, "package.json"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${fileURLToPath(from)}`);
    dir = parent;
  }
  return dir;
}

export const PACKAGE_ROOT = packageRoot(import.meta.url);
export const DASHBOARD_DIST = join(PACKAGE_ROOT, "dist", "ui", "dashboard");
export const HOSTED_DIST = join(PACKAGE_ROOT, "dist", "ui", "hosted");
/** The dashboard's path on the server (Vite's `base`); its page routes by #hash. */
export const DASHBOARD_BASE = "/__emulator/ui/";
