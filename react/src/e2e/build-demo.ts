import { fileURLToPath } from "node:url";
import { build, defaultClientConditions } from "vite";

/**
 * Builds the demo app (react/src/demo) with Vite into `outDir`: a static bundle with no CDN, as a person would deploy
 * it. JSX uses the automatic runtime, Vite's default for .tsx, so no React plugin is needed.
 */
export const demoRoot = fileURLToPath(new URL("../demo/", import.meta.url));

export async function buildDemo(outDir: string): Promise<void> {
  await build({
    root: demoRoot,
    configFile: false,
    // The workspace packages from their sources (their export maps' "@authsim/source" condition), built or not.
    resolve: { conditions: ["@authsim/source", ...defaultClientConditions] },
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, sourcemap: false, minify: false, reportCompressedSize: false },
  });
}
