import { join } from "node:path";
import type { Bundle } from "../bundles/ensure-built.ts";
import { HOSTED_DIST } from "../bundles/locations.ts";
import { recordInputs } from "../bundles/recorded-inputs.ts";
import { hostedRoot, hostedViteConfig } from "./vite.config.ts";

/**
 * Node-only, build time: the hosted handler pages as a bundle the dev server builds when stale (bundles/ensure-built.ts). Its output is dist/ui/hosted (bundles/locations.ts).
 */
export async function buildHosted(outDir: string): Promise<void> {
  const { build } = await import("vite");
  const config = hostedViteConfig(outDir);
  await build({ ...config, plugins: [...(config.plugins ?? []), recordInputs()] });
}

export const hostedBundle: Bundle = {
  name: "hosted pages",
  dist: HOSTED_DIST,
  // Its own directory, plus every file the last build compiled — the pages are @authsim/react's and the SDK's sources,
  // so a change there rebuilds them — as the build recorded them.
  sources: [...["src", "index.html", "vite.config.ts"].map((s) => join(hostedRoot, s)), import.meta.filename],
  recordsInputs: true,
  build: buildHosted,
};
