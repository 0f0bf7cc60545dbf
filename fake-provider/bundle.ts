import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

/**
 * Build time only (`npm run build`, after tsc): the package's entry points (., ./msw, ./dev-server) as a few files
 * in dist/bundle/ instead of some 450 modules. A test runner imports the emulator in every fresh worker: under vitest's
 * default (one process per test file) Node spent 420 ms resolving, reading and linking those modules per file, and
 * 255 ms with the bundle (issue 30; `BENCH_ONLY=import` prints the figure).
 *
 * What stays outside, imported as the package's users install it: every dependency (one copy of zod, hono, the SDK…
 * with the user's own), Node's built-ins, and the package's `#` imports (package.json "imports"), so each still picks
 * its module by platform at run time (node:crypto or Web Crypto, the email engine or none). Those modules hold no state
 * of the emulator's: they import types from the rest, and functions that keep nothing. The lazily loaded parts (an
 * email's plain text, the analytics query engine…) stay chunks of their own, loaded on first use.
 *
 * The .d.ts files stay where tsc wrote them (package.json "types"); the bundle's source map points into dist/.
 */
const root = new URL("./", import.meta.url);
const outDir = fileURLToPath(new URL("dist/bundle/", root));
const manifest = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const dependencies = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
const isExternal = (id: string) =>
  id.startsWith("node:") || id.startsWith("#") || dependencies.some((d) => id === d || id.startsWith(`${d}/`));

await rm(outDir, { recursive: true, force: true });
await build({
  input: {
    index: fileURLToPath(new URL("dist/index.js", root)),
    msw: fileURLToPath(new URL("dist/api/msw/index.js", root)),
    "dev-server": fileURLToPath(new URL("dist/dev-server.js", root)),
  },
  // The bundle runs where the package does (Node, browsers, msw's service worker): no platform shims.
  platform: "neutral",
  external: isExternal,
  logLevel: "warn",
  output: {
    dir: outDir,
    format: "esm",
    sourcemap: true,
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
  },
});
console.log("@authsim/fake-provider bundled into dist/bundle/");
