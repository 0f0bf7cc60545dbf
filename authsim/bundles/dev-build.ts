import { dashboardBundle } from "../dashboard/build.ts";
import { hostedBundle } from "../hosted/build.ts";
import type { BundleNotes } from "./dev-server.ts";
import { bundleCli } from "./bundle-cli.ts";
import { ensureBuilt, ensureBuiltNote } from "./ensure-built.ts";

/**
 * Monorepo only (never in the package's build): the dashboard and the hosted pages rebuilt with Vite when older than
 * their sources, so `npm start` and the browser tests always serve what the sources say. One after the other: two
 * Vite builds in one process gain little and log interleaved.
 */
export async function ensureBundlesBuilt(): Promise<BundleNotes> {
  const dashboard = await ensureBuiltNote(dashboardBundle);
  const hosted = await ensureBuiltNote(hostedBundle);
  return { dashboard, hosted };
}

/**
 * The package's build step after tsc (`npm run build`): the pages when stale (failing loudly, where the dev server only
 * notes), then the CLI bundle (bundle-cli.ts) that bin/authsim.js runs.
 */
export async function buildBundles(): Promise<void> {
  for (const bundle of [dashboardBundle, hostedBundle]) {
    const result = await ensureBuilt(bundle);
    console.log(`${bundle.name}: ${result.built ? `built in ${result.millis} ms` : "up to date"} (${result.dist})`);
  }
  await bundleCli();
  console.log("CLI bundled into dist/cli/");
}

if (process.argv[1] && import.meta.filename === process.argv[1]) await buildBundles();
