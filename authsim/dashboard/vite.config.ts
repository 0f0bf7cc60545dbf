import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig, type InlineConfig } from "vite";
import { DASHBOARD_BASE } from "../bundles/locations.ts";

/**
 * The dashboard's Vite build: a static bundle (no CDN, no runtime fetches but the emulator's own endpoints), served by
 * the dev server under /__emulator/ui/ (and at /). JSX uses the automatic runtime, Vite's default for .tsx, so no React
 * plugin is needed. `npx vite build authsim/dashboard` uses this file; the build imports the object.
 */
export const dashboardRoot = fileURLToPath(new URL("./", import.meta.url));

export function dashboardViteConfig(outDir: string): InlineConfig {
  return {
    root: dashboardRoot,
    base: DASHBOARD_BASE,
    configFile: false,
    logLevel: "warn",
    // The built bundle runs React's production build: the dashboard is a tool, not something to debug.
    mode: "production",
    // The workspace packages from their sources (their export maps' "@authsim/source" condition), built or not.
    resolve: { conditions: ["@authsim/source", ...defaultClientConditions] },
    build: { outDir, emptyOutDir: true, sourcemap: false, reportCompressedSize: false, chunkSizeWarningLimit: 2_000 },
  };
}

export default defineConfig(dashboardViteConfig(fileURLToPath(new URL("../dist/ui/dashboard/", import.meta.url))));
