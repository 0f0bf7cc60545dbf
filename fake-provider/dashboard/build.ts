import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Bundle } from "../bundles/ensure-built.ts";
import { dashboardRoot, dashboardViteConfig } from "./vite.config.ts";

/** Node-only: the dashboard as a bundle the dev server builds when stale (bundles/ensure-built.ts). */
export const DASHBOARD_DIST = join(dashboardRoot, "dist");

export async function buildDashboard(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build(dashboardViteConfig(outDir));
}

export const dashboardBundle: Bundle = {
  name: "dashboard",
  dist: DASHBOARD_DIST,
  // The panels import the env-line helper from the CLI's sources.
  sources: [...["src", "index.html", "vite.config.ts"].map((s) => join(dashboardRoot, s)), fileURLToPath(new URL("../src/cli-args.ts", import.meta.url))],
  build: buildDashboard,
};
