import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { Script } from "node:vm";

/**
 * Node-only: how the built CLI starts (bundles/cli-entry.ts, which becomes dist/cli/cli.js). The CLI's bundle is
 * CommonJS (dist/cli/cli.cjs and its lazy chunks, bundles/bundle-cli.ts), run here through `vm.Script` so V8 can keep
 * what it compiled between starts: Node 20 keeps no code cache of an ES module or of a `require()`d file without a
 * flag on the command line. The cache is made once the bundle's start-up code has run (the functions it compiled,
 * not only its top level) and read on the next start; a cache V8 rejects (another Node, a rebuilt bundle) is compiled
 * around and written again. No write is needed to start: a read-only directory only means no cache.
 */

/**
 * The name the bundle's dynamic imports are renamed to (bundle-cli.ts renames `import(` in place: as long as `import`,
 * so its source map stays right). A script has no module to import from, so the entry module's `import()` stands in.
 */
export const DYNAMIC_IMPORT = "__imp_";

export interface BundleOptions {
  /** Modules the bundle requires that are neither its own files nor Node's built-ins: ES modules the entry imported. */
  readonly externals: Readonly<Record<string, unknown>>;
  /** `import()` as the entry module makes it: what the bundle leaves outside resolves from the entry's directory. */
  readonly importModule: (specifier: string) => Promise<unknown>;
  /** Where compiled code is kept between starts (created when first written); null keeps none. */
  readonly cacheDir: string | null;
}

export interface BundleRun {
  /** What the entry exported. */
  readonly exports: unknown;
  /** How many of the files run during the start V8 took from the cache. */
  readonly filesFromCache: number;
  /** Settles once the cache is written (or could not be): it never rejects. */
  readonly written: Promise<void>;
}

interface Module {
  exports: unknown;
}

/** The wrapper's line ends before the bundle's first line; `lineOffset` gives stack traces the bundle's own numbers. */
const wrapperParameters = ["exports", "require", "module", "__filename", "__dirname", DYNAMIC_IMPORT].join(", ");
// Not `(function …)`: V8 compiles a parenthesised function eagerly, all 1 MB of it (13 MiB more RSS at every start).
// "use strict": the bundle was ES modules, which are strict.
const wrap = (source: string) => `0, function (${wrapperParameters}) {"use strict";\n${source}\n}`;

/**
 * Runs the CommonJS bundle at `entryFile`: its own files (`require("./…")`, its lazy chunks) through here, the
 * externals as given, Node's built-ins through Node. Returns once the entry's synchronous part has run, after having
 * scheduled the cache's write if it had none.
 */
export function runBundle(entryFile: string, options: BundleOptions): BundleRun {
  if (process.sourceMapsEnabled) return requiredBundle(entryFile, options);
  const modules = new Map<string, Module>();
  const nodeRequire = createRequire(entryFile);
  // Only files compiled during the start are cached: the cache must be made with V8's flags as they are now, before
  // the CLI changes any (a cache made under other flags is rejected), and a lazy chunk is loaded later.
  let starting = true;
  const uncached: { script: Script; file: string }[] = [];
  const currentBuild: string[] = [];

  const load = (file: string): unknown => {
    const known = modules.get(file);
    if (known) return known.exports;
    const source = readFileSync(file, "utf8");
    const prefix = starting && options.cacheDir !== null ? cachePrefix(file, source) : null;
    if (prefix !== null) currentBuild.push(prefix);
    const cacheFile =
      prefix === null || options.cacheDir === null ? null : join(options.cacheDir, prefix + cacheSuffix());
    const cachedData = cacheFile === null ? undefined : readCache(cacheFile);
    const script = new Script(wrap(source), { filename: file, lineOffset: -1, cachedData });
    if (cacheFile !== null && (cachedData === undefined || script.cachedDataRejected))
      uncached.push({ script, file: cacheFile });
    const module: Module = { exports: {} };
    modules.set(file, module);
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run(module.exports, requireFrom(dirname(file)), module, file, dirname(file), options.importModule);
    return module.exports;
  };
  const requireFrom =
    (dir: string) =>
    (specifier: string): unknown => {
      if (specifier.startsWith("./") || specifier.startsWith("../")) return load(resolve(dir, specifier));
      if (Object.hasOwn(options.externals, specifier)) return options.externals[specifier];
      return nodeRequire(specifier);
    };

  const exports = load(entryFile);
  starting = false;
  const written =
    options.cacheDir !== null && uncached.length > 0
      ? writeCaches(options.cacheDir, uncached, currentBuild)
      : Promise.resolve();
  return { exports, filesFromCache: currentBuild.length - uncached.length, written };
}

/**
 * Under `--enable-source-maps`, Node maps stack traces only of code its own loaders compiled, not of a `vm.Script`: the
 * bundle is then `require()`d, with no cache (a debugging start), so its traces name the sources. Node resolves the
 * externals itself there (an ES module `require()`d, which Node 20.19 does without a flag); the dynamic imports'
 * stand-in is a global for that start.
 */
function requiredBundle(entryFile: string, options: BundleOptions): BundleRun {
  Object.defineProperty(globalThis, DYNAMIC_IMPORT, { value: options.importModule, configurable: true });
  const exports: unknown = createRequire(entryFile)(entryFile);
  return { exports, filesFromCache: 0, written: Promise.resolve() };
}

const shortHash = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 22);

/**
 * One name per bundle file's contents, Node version, architecture and Node's flags (V8 rejects a cache made under
 * other flags: a start with --inspect or --cpu-prof keeps a cache of its own instead of replacing the plain starts').
 */
export const cacheName = (file: string, source: string): string => cachePrefix(file, source) + cacheSuffix();

/** What the caches of one build of a bundle file share, whatever Node ran it. */
const cachePrefix = (file: string, source: string) => `${basename(file)}-${shortHash(source)}-`;
const cacheSuffix = () =>
  `${process.version}-${process.arch}-${shortHash([...process.execArgv, process.env.NODE_OPTIONS ?? ""].join("\0")).slice(0, 8)}.v8`;

function readCache(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined; // none yet, or unreadable: compiled as without a cache
  }
}

/**
 * Made now (V8 serialises what has been compiled so far), written without blocking the start: each file whole or not
 * at all (written aside, then renamed), and the caches of earlier builds removed (those of other flags kept), with what
 * a stopped start left aside. A failure only means no cache.
 */
async function writeCaches(
  dir: string,
  compiled: { script: Script; file: string }[],
  currentBuild: string[],
): Promise<void> {
  const made = compiled.map(({ script, file }) => ({ data: script.createCachedData(), file }));
  try {
    await mkdir(dir, { recursive: true });
    for (const { data, file } of made) {
      const aside = `${file}.${process.pid}.tmp`;
      await writeFile(aside, data);
      await rename(aside, file);
    }
    const stale = (await readdir(dir)).filter((name) =>
      name.endsWith(".tmp")
        ? !alive(Number(/\.(\d+)\.tmp$/.exec(name)?.[1]))
        : name.endsWith(".v8") && !currentBuild.some((prefix) => name.startsWith(prefix)),
    );
    await Promise.all(stale.map((name) => rm(join(dir, name), { force: true })));
  } catch {
    // a read-only or full disk: the next start compiles again
  }
}

/** Whether a process writing a cache aside may still rename it (one stopped mid-write leaves its file behind). */
function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // someone else's process: leave its file alone
  }
}

/**
 * Where the CLI keeps its compiled code: `node_modules/.cache/authsim` (the convention of tools' caches) in the
 * node_modules the package is installed in; run from a checkout (the monorepo's build), in the package's own
 * node_modules. Never a shared directory such as the system's temporary one: a cache is code this process will run.
 */
export function defaultCacheDir(bundleFile: string): string | null {
  let dir = dirname(bundleFile);
  for (;;) {
    if (basename(dir) === "node_modules") return join(dir, ".cache", "authsim");
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  for (dir = dirname(bundleFile); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "node_modules", ".cache", "authsim");
    if (dirname(dir) === dir) return null;
  }
}
