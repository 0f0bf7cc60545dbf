import { fileURLToPath } from "node:url";
// What the bundle requires from outside (bundle-cli.ts leaves it out: its worker and WebAssembly are files of their own).
import * as emailEngine from "@authsim/fake-provider/email-engine";
import { defaultCacheDir, runBundle } from "../src/bundle-loader.ts";

/**
 * The built CLI's entry, dist/cli/cli.js (bin/authsim.js imports it; bundle-cli.ts builds it beside the bundle it
 * runs): the CommonJS bundle dist/cli/cli.cjs through the code cache of src/bundle-loader.ts. Its `import()` is the
 * bundle's, so esbuild-wasm and a config file resolve from here, as they did from the bundle itself.
 */
const bundle = fileURLToPath(new URL("./cli.cjs", import.meta.url));
runBundle(bundle, {
  externals: { "@authsim/fake-provider/email-engine": emailEngine },
  importModule: (specifier) => import(specifier),
  cacheDir: defaultCacheDir(bundle),
});
