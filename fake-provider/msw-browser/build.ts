import { copyFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, createLogger, defaultClientConditions } from "vite";

/**
 * Node-only: builds page/ (the whole emulator behind msw's setupWorker, plus our SDK) into `outDir` with Vite, as an
 * app's own browser tests would bundle it, and puts msw's worker script beside it: copied from the installed msw at
 * build time, so it always matches the library version (msw refuses a worker of another version).
 */
export const pageRoot = fileURLToPath(new URL("./page/", import.meta.url));
export const WORKER_SCRIPT = "mockServiceWorker.js";

export interface PageBuild {
  /** Vite's warnings: a Node built-in reached from the emulator's core shows up here as "externalized for browser". */
  warnings: string[];
}

export async function buildMswPage(outDir: string): Promise<PageBuild> {
  const warnings: string[] = [];
  // Recorded for the test to judge, not printed: Vite's chunking notes about the SDK's lazy imports are noise here.
  const logger = createLogger("warn");
  logger.warn = (message) => void warnings.push(message);
  await build({
    root: pageRoot,
    configFile: false,
    // The workspace packages from their sources (their export maps' "@authsim/source" condition), built or not.
    resolve: { conditions: ["@authsim/source", ...defaultClientConditions] },
    customLogger: logger,
    logLevel: "warn",
    build: {
      outDir,
      emptyOutDir: true,
      sourcemap: false,
      minify: false,
      reportCompressedSize: false,
      chunkSizeWarningLimit: 4_000,
    },
  });
  await copyFile(createRequire(import.meta.url).resolve(`msw/${WORKER_SCRIPT}`), join(outDir, WORKER_SCRIPT));
  return { warnings };
}
