import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Bundle } from "../bundles/ensure-built.ts";
import { hostedRoot, hostedViteConfig } from "./vite.config.ts";

/** Node-only: the hosted handler pages as a bundle the dev server builds when stale (bundles/ensure-built.ts). */
export const HOSTED_DIST = join(hostedRoot, "dist");

/** A workspace package's source directory: the bundle compiles @authsim/react and @authsim/sdk from their sources. */
const sourceDirOf = (specifier: string) => dirname(fileURLToPath(import.meta.resolve(specifier)));

export async function buildHosted(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build(hostedViteConfig(outDir));
}

export const hostedBundle: Bundle = {
  name: "hosted pages",
  dist: HOSTED_DIST,
  // The pages are @authsim/react's: a change there (or in the SDK under it) must rebuild them too.
  sources: [...["src", "index.html", "vite.config.ts"].map((s) => join(hostedRoot, s)), sourceDirOf("@authsim/react"), sourceDirOf("@authsim/sdk")],
  build: buildHosted,
};
