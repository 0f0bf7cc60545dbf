import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig, type InlineConfig } from "vite";
import { HOSTED_BASE } from "./src/hosted-config.ts";

/**
 * The hosted handler pages' Vite build: @authsim/react's pages for the dev project, a static bundle (no CDN) served by
 * the dev server at /handler/* and /app, with its assets under /__emulator/hosted/. JSX uses the automatic runtime,
 * Vite's default for .tsx, so no React plugin is needed. `npx vite build authsim/hosted` uses this file.
 */
export const hostedRoot = fileURLToPath(new URL("./", import.meta.url));

export function hostedViteConfig(outDir: string): InlineConfig {
  return {
    root: hostedRoot,
    base: HOSTED_BASE,
    configFile: false,
    logLevel: "warn",
    mode: "production",
    // The workspace packages from their sources (their export maps' "@authsim/source" condition), built or not.
    resolve: { conditions: ["@authsim/source", ...defaultClientConditions] },
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 2_000,
      rollupOptions: {
        // The SDK imports its admin app lazily in one place and eagerly in its index: a chunking remark about the
        // SDK's layout, not about these pages, that would otherwise print in the dev server's banner on every build.
        onwarn(warning, warn) {
          if (warning.code !== "INEFFECTIVE_DYNAMIC_IMPORT") warn(warning);
        },
      },
    },
  };
}

export default defineConfig(hostedViteConfig(fileURLToPath(new URL("../dist/ui/hosted/", import.meta.url))));
