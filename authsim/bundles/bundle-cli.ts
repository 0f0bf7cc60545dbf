import { rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";

/**
 * Build time only: the CLI (dist/src/cli.js, from tsc) bundled with the emulator's core, the SDK, the fixtures and
 * their pure-JavaScript dependencies into dist/cli/, which bin/authsim.js runs. Node loads one file instead of some 600
 * modules, which is most of the dev server's cold start (issue 16: measured by `npm run bench`).
 *
 * Left outside: Node's built-ins, and the email renderer's engine (`#email-engine` inside the core), which loads on
 * first use and runs in a worker from files of its own (its worker script, QuickJS's WebAssembly, React's CommonJS
 * builds): it is imported from the installed @authsim/fake-provider (`@authsim/fake-provider/email-engine`), this
 * package's one dependency.
 */
export const CLI_BUNDLE_DIR = fileURLToPath(new URL("../dist/cli/", import.meta.url));
const entry = fileURLToPath(new URL("../dist/src/cli.js", import.meta.url));
const EMAIL_ENGINE = "@authsim/fake-provider/email-engine";

export async function bundleCli(): Promise<void> {
  await rm(CLI_BUNDLE_DIR, { recursive: true, force: true });
  await build({
    input: entry,
    platform: "node",
    external: [/^node:/, EMAIL_ENGINE],
    plugins: [
      {
        name: "authsim-email-engine-outside",
        resolveId: (source) => (source === "#email-engine" ? { id: EMAIL_ENGINE, external: true } : null),
      },
    ],
    logLevel: "warn",
    // The SDK's admin app is imported lazily in one place and eagerly in its index: a remark about the SDK's layout.
    onLog(level, log, handler) {
      if (log.code !== "INEFFECTIVE_DYNAMIC_IMPORT") handler(level, log);
    },
    output: {
      dir: CLI_BUNDLE_DIR,
      format: "esm",
      sourcemap: true,
      entryFileNames: "[name].js",
      minify: { compress: false, mangle: false, codegen: { removeWhitespace: true, asciiOnly: true } },
    },
  });
}
