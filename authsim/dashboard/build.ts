import { join } from "node:path";
import type { Bundle } from "../bundles/ensure-built.ts";
import { DASHBOARD_DIST } from "../bundles/locations.ts";
import { recordInputs } from "../bundles/recorded-inputs.ts";
import { dashboardRoot, dashboardViteConfig } from "./vite.config.ts";

/**
 * Node-only, build time: the dashboard as a bundle the dev server builds when stale (bundles/ensure-built.ts). Its output is dist/ui/dashboard (bundles/locations.ts).
 */
export async function buildDashboard(outDir: string): Promise<void> {
  const { build } = await import("vite");
  const config = dashboardViteConfig(outDir);
  await build({ ...config, plugins: [...(config.plugins ?? []), recordInputs()] });
}

export const dashboardBundle: Bundle = {
  name: "dashboard",
  dist: DASHBOARD_DIST,
  // Its own directory (a new file there, the page, the config), plus every file the last build imported from
  // anywhere (the CLI's env-line helper, the hosted pages' config, ...), as the build recorded them.
  sources: [...["src", "index.html", "vite.config.ts"].map((s) => join(dashboardRoot, s)), import.meta.filename],
  recordsInputs: true,
  build: buildDashboard,
};
