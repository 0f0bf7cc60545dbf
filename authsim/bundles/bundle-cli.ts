import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { dynamicImportsThroughLoader, topLevelAwaitIn } from "./commonjs-plugins.ts";

/**
 * Build time only: the CLI (dist/src/cli.js, from tsc) bundled with the emulator's core, the SDK, the fixtures and
 * their pure-JavaScript dependencies into dist/cli/, which bin/authsim.js runs. Node loads one file instead of some 600
 * modules, which is most of the dev server's cold start (issue 16: measured by `npm run bench`).
 *
 * The bundle is CommonJS (cli.cjs, lazy chunks beside it), started by a small ES module (cli.js, from
 * bundles/cli-entry.ts) that runs it through V8's code cache (src/bundle-loader.ts): Node 20 caches the compiled code
 * of no module, and compiling the bundle was a sixth of every start (issue 30).
 *
 * Left outside: Node's built-ins, and the email renderer's engine (`#email-engine` inside the core), which loads on
 * first use and runs in a worker from files of its own (its worker script, QuickJS's WebAssembly, React's CommonJS
 * builds): it is imported from the installed @authsim/fake-provider (`@authsim/fake-provider/email-engine`), a
 * dependency of this package. And esbuild-wasm, which --config loads for a TypeScript config file (src/config-file.ts):
 * its WebAssembly binary and worker are files of their own, so it is a dependency of this package, imported installed.
 */
export const CLI_BUNDLE_DIR = fileURLToPath(new URL("../dist/cli/", import.meta.url));
const entry = fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));
const loaderEntry = fileURLToPath(new URL("../dist/bundles/cli-entry.js", import.meta.url));
const EMAIL_ENGINE = "@authsim/fake-provider/email-engine";

/**
 * @hono/node-server imports node:http2 only to recognise HTTP/2 requests (`instanceof Http2ServerRequest`) and to close
 * their streams. The dev server listens with node:http alone, so no request is ever one: a stand-in class keeps those
 * checks false without loading http2 (about 7 ms of every cold start).
 */
const HTTP2_STAND_IN = "\0authsim-http2-stand-in";
const http2StandIn = "export class Http2ServerRequest {}\nexport const constants = { NGHTTP2_NO_ERROR: 0 };\n";
const honoHttp2 = (source: string, importer: string | undefined) =>
  (source === "http2" || source === "node:http2") && Boolean(importer?.includes("@hono/node-server"));

export async function bundleCli(): Promise<void> {
  await rm(CLI_BUNDLE_DIR, { recursive: true, force: true });
  await build({
    input: entry,
    platform: "node",
    // Node's built-ins stay outside, but for @hono/node-server's http2, which the stand-in below replaces (a pattern
    // here would win over the plugin: rolldown decides what is external before asking plugins to resolve it).
    external: (source, importer) =>
      (source.startsWith("node:") && !honoHttp2(source, importer)) ||
      source === EMAIL_ENGINE ||
      source === "esbuild-wasm",
    plugins: [
      {
        name: "authsim-email-engine-outside",
        resolveId: (source) => (source === "#email-engine" ? { id: EMAIL_ENGINE, external: true } : null),
      },
      {
        name: "authsim-http1-only",
        resolveId: (source, importer) => (honoHttp2(source, importer) ? HTTP2_STAND_IN : null),
        load: (id) => (id === HTTP2_STAND_IN ? http2StandIn : null),
      },
      topLevelAwaitIn(entry),
      dynamicImportsThroughLoader(),
    ],
    logLevel: "warn",
    // The SDK's admin app is imported lazily in one place and eagerly in its index: a remark about the SDK's layout.
    onLog(level, log, handler) {
      if (log.code !== "INEFFECTIVE_DYNAMIC_IMPORT") handler(level, log);
    },
    output: {
      dir: CLI_BUNDLE_DIR,
      format: "cjs",
      // ES modules are strict; the loader's wrapper says so too, but `require()` runs the files as they are (under
      // --enable-source-maps, src/bundle-loader.ts).
      banner: '"use strict";',
      sourcemap: true,
      entryFileNames: "[name].cjs",
      chunkFileNames: "[name]-[hash].cjs",
      // Local names shortened (a quarter less JavaScript to parse at every start, 0.6 MiB less idle RSS); functions and
      // classes keep theirs, which errors carry (jose names its errors by their class).
      minify: { compress: false, mangle: { keepNames: true }, codegen: { removeWhitespace: true, asciiOnly: true } },
    },
  });
  // The entry that runs it: the loader alone, everything else it names outside.
  await build({
    input: { cli: loaderEntry },
    platform: "node",
    external: (source) => source.startsWith("node:") || source === EMAIL_ENGINE,
    logLevel: "warn",
    output: { dir: CLI_BUNDLE_DIR, format: "esm", sourcemap: true, entryFileNames: "[name].js" },
  });
}
