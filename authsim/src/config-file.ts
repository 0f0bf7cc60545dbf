import { existsSync, readFileSync, rmSync, watchFile, writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { callerHeaders, type CallerCredentials } from "@authsim/sdk/contract";

/**
 * `--config FILE`: the Stack Auth CLI's config file (`stack config pull` writes it, `stack config push` sends it), a
 * module exporting `config`, an environment config override such as `{ auth: { allowSignUp: false } }` or
 * `{ "auth.allowSignUp": false }`. Loaded here at the Node edge and pushed as the real CLI pushes it: one
 * `PUT /api/v1/internal/config/override/branch` with the object as `config_string`, so the emulator's own endpoint
 * checks it and answers the real service's errors (nothing is validated twice).
 */

const MODULE_EXTENSIONS = new Set([".js", ".mjs", ".cjs"]);
const TYPESCRIPT_EXTENSIONS = new Set([".ts", ".mts", ".cts"]);

/** A failure that names the file and the reason: the start stops with it, --watch prints it and keeps the last config. */
export class ConfigFileError extends Error {}

/** Counts loads: a fresh module URL per load, so --watch imports the file as changed rather than from the cache. */
let loads = 0;

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The `config` object the file exports (or, for JSON, the document itself). */
export async function loadConfigFile(file: string): Promise<Record<string, unknown>> {
  if (!existsSync(file)) throw new ConfigFileError(`Config file not found: ${file}`);
  const ext = extname(file).toLowerCase();
  let config: unknown;
  if (ext === ".json") {
    try {
      config = JSON.parse(readFileSync(file, "utf8"));
    } catch (error) {
      throw new ConfigFileError(`Could not load the config file ${file}: ${reason(error)}`);
    }
    if (!isPlainObject(config))
      throw new ConfigFileError(`The config file ${file} must hold one JSON object, the config override.`);
    return config;
  }
  if (!MODULE_EXTENSIONS.has(ext) && !TYPESCRIPT_EXTENSIONS.has(ext)) {
    throw new ConfigFileError(
      `The config file ${file} must be .ts, .mts, .cts, .js, .mjs, .cjs or .json, not ${ext || "without an extension"}.`,
    );
  }
  try {
    const module = (
      TYPESCRIPT_EXTENSIONS.has(ext)
        ? await importTypeScript(file)
        : await import(`${pathToFileURL(file).href}?load=${++loads}`)
    ) as { config?: unknown };
    config = module.config;
  } catch (error) {
    throw new ConfigFileError(`Could not load the config file ${file}: ${reason(error)}`);
  }
  if (!isPlainObject(config)) {
    throw new ConfigFileError(
      `The config file ${file} must export a plain \`config\` object, e.g. export const config = { auth: { allowSignUp: false } };`,
    );
  }
  return config;
}

/**
 * TypeScript through esbuild (the WebAssembly build the emulator already ships for emails): the file and what it
 * imports relatively become one ES module, packages stay imports. It is written beside the file for a moment so those
 * imports resolve from the project's node_modules as the file's own would, then removed.
 */
async function importTypeScript(file: string): Promise<unknown> {
  const esbuild = await import("esbuild-wasm");
  const built = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
  });
  const compiled = join(dirname(file), `.${basename(file)}.authsim-${process.pid}-${++loads}.mjs`);
  // Readable by this user only: a config file may hold an OAuth client secret or an email server's password.
  writeFileSync(compiled, built.outputFiles[0]?.text ?? "", { mode: 0o600 });
  try {
    return await import(pathToFileURL(compiled).href);
  } finally {
    rmSync(compiled, { force: true });
  }
}

/**
 * Pushes the config to the project's branch level, replacing what an earlier push left there, as `stack config push`
 * does. A refusal comes back as the endpoint's own message, after the file's name.
 */
export async function pushConfig(
  file: string,
  config: Record<string, unknown>,
  target: { baseUrl: string; fetch: (request: Request) => Response | Promise<Response>; caller: CallerCredentials },
): Promise<void> {
  const response = await target.fetch(
    new Request(`${target.baseUrl}/api/v1/internal/config/override/branch`, {
      method: "PUT",
      headers: { "content-type": "application/json", ...callerHeaders(target.caller) },
      body: JSON.stringify({ config_string: JSON.stringify(config), source: { type: "pushed-from-unknown" } }),
    }),
  );
  if (response.ok) return;
  const text = await response.text();
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: unknown; code?: unknown };
    if (typeof body.error === "string")
      message = typeof body.code === "string" ? `${body.code}: ${body.error}` : body.error;
  } catch {
    // A plain-text refusal (the config's validation errors are): its text is the reason.
  }
  throw new ConfigFileError(`The config file ${file} was refused: ${message || `status ${response.status}`}`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/**
 * --watch: `apply` again whenever the file changes, polling its times (not fs.watch), so an editor that saves by
 * replacing the file is still seen. One push at a time; a broken save is reported and the last good config stays.
 */
export function watchConfigFile(file: string, apply: () => Promise<unknown>, log: (line: string) => void): void {
  let pushing = Promise.resolve();
  watchFile(file, { interval: 300 }, (now, before) => {
    if (now.mtimeMs === before.mtimeMs && now.size === before.size) return;
    pushing = pushing.then(() =>
      apply().then(
        () => log(`Config file ${file} pushed again.`),
        (error: unknown) =>
          console.error(`${error instanceof Error ? error.message : String(error)} (the previous config stays)`),
      ),
    );
  });
}
