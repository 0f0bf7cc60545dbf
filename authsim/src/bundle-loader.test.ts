import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { cacheName, defaultCacheDir, DYNAMIC_IMPORT, runBundle, type BundleOptions } from "./bundle-loader.ts";

/** Issue 30: the built CLI runs its CommonJS bundle through V8's code cache; these are the loader's rules. */

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "authsim-bundle-loader-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A bundle as bundle-cli.ts writes one: an entry that requires a chunk of its own, an external and a built-in, and a
 * lazy chunk required later that requires the entry back (the shared code a lazy chunk takes from the start's file).
 */
function writeBundle(dir: string): string {
  writeFileSync(join(dir, "shared-abc.cjs"), "exports.twice = (n) => 2 * n;\n");
  writeFileSync(
    join(dir, "lazy-def.cjs"),
    'const entry = require("./cli.cjs");\nexports.fromEntry = () => entry.answer;\n',
  );
  writeFileSync(
    join(dir, "cli.cjs"),
    [
      'const shared = require("./shared-abc.cjs");',
      'const engine = require("some-external");',
      'const path = require("node:path");',
      "exports.answer = shared.twice(21);",
      "exports.engine = engine.name;",
      "exports.sep = path.sep;",
      'exports.lazy = () => Promise.resolve().then(() => require("./lazy-def.cjs"));',
      `exports.imported = (specifier) => ${DYNAMIC_IMPORT}(specifier);`,
      "exports.strict = (function () { return this === undefined; })();",
      'exports.fail = () => { throw new Error("from the bundle"); };',
      "",
    ].join("\n"),
  );
  return join(dir, "cli.cjs");
}

interface TestBundle {
  answer: number;
  engine: string;
  sep: string;
  lazy(): Promise<{ fromEntry(): number }>;
  imported(specifier: string): Promise<unknown>;
  strict: boolean;
  fail(): never;
}

const options = (cacheDir: string | null): BundleOptions => ({
  externals: { "some-external": { name: "the external" } },
  importModule: (specifier) => import(specifier),
  cacheDir,
});

describe("runBundle", () => {
  it("runs the bundle: its chunks, externals, built-ins, lazy chunks and dynamic imports, in strict mode", async () => {
    const entry = writeBundle(tempDir());
    const run = runBundle(entry, options(null));
    const bundle = run.exports as TestBundle;
    expect(bundle.answer).toBe(42);
    expect(bundle.engine).toBe("the external");
    expect(bundle.sep).toBe("/");
    expect(bundle.strict).toBe(true);
    // The lazy chunk gets the entry's own instance, not a second one.
    expect((await bundle.lazy()).fromEntry()).toBe(42);
    expect(await bundle.imported("node:os")).toHaveProperty("tmpdir");
    expect(run.filesFromCache).toBe(0);
  });

  // Each start from a directory of its own, as another process would be: V8 keeps what it compiled in this process
  // under the file's name, and would not even read the cache for a file it has compiled already.
  it("writes a cache on the first start that the next start takes, and rewrites a rejected one", async () => {
    const cacheDir = join(tempDir(), "cache");
    const start = () => runBundle(writeBundle(tempDir()), options(cacheDir));
    const first = start();
    expect(first.filesFromCache).toBe(0);
    await first.written;
    const files = readdirSync(cacheDir).sort();
    expect(files).toHaveLength(2); // the entry and the chunk it required during the start, not the lazy chunk
    expect(files.every((name) => name.includes(`-${process.version}-${process.arch}-`))).toBe(true);

    const second = start();
    expect(second.filesFromCache).toBe(2);
    expect((second.exports as TestBundle).answer).toBe(42);

    // Garbage where the entry's cache was: compiled as without one, and written again.
    const entryCache = files.find((name) => name.startsWith("cli.cjs-"))!;
    writeFileSync(join(cacheDir, entryCache), "not a V8 code cache");
    const third = start();
    expect(third.filesFromCache).toBe(1);
    expect((third.exports as TestBundle).answer).toBe(42);
    await third.written;
    expect(start().filesFromCache).toBe(2);
  });

  it("keeps the current build's caches, under any flags, and drops earlier builds' and abandoned writes", async () => {
    const cacheDir = join(tempDir(), "cache");
    await runBundle(writeBundle(tempDir()), options(cacheDir)).written;
    const otherFlags = cacheName(
      join(tempDir(), "cli.cjs"),
      'exports.answer = require("./shared-abc.cjs").twice(4);\n',
    ).replace(/-[^-]+\.v8$/, "-otherflg.v8");
    const dir = tempDir();
    const entry = writeBundle(dir);
    const rebuilt = 'exports.answer = require("./shared-abc.cjs").twice(4);\n';
    writeFileSync(entry, rebuilt);
    writeFileSync(join(cacheDir, otherFlags), "made under --inspect, say");
    // What a start stopped while writing left aside (no process has that number), and what a live one is writing.
    writeFileSync(join(cacheDir, `${otherFlags}.4194304999.tmp`), "");
    writeFileSync(join(cacheDir, `${otherFlags}.${process.pid}.tmp`), "");
    const run = runBundle(entry, options(cacheDir));
    expect((run.exports as TestBundle).answer).toBe(8);
    await run.written;
    expect(
      readdirSync(cacheDir)
        .filter((name) => name.startsWith("cli.cjs-"))
        .sort(),
    ).toEqual([cacheName(entry, rebuilt), otherFlags, `${otherFlags}.${process.pid}.tmp`].sort());
  });

  it("starts when the cache cannot be written", async () => {
    const dir = tempDir();
    const entry = writeBundle(dir);
    writeFileSync(join(dir, "a-file"), "");
    const run = runBundle(entry, options(join(dir, "a-file", "cache"))); // mkdir fails here, even as root
    expect((run.exports as TestBundle).answer).toBe(42);
    await expect(run.written).resolves.toBeUndefined();
  });

  it("gives stack traces the bundle's own line numbers (what its source map maps)", () => {
    const entry = writeBundle(tempDir());
    const bundle = runBundle(entry, options(null)).exports as TestBundle;
    let stack = "";
    try {
      bundle.fail();
    } catch (error) {
      stack = (error as Error).stack ?? "";
    }
    expect(stack).toContain(`${entry}:10:`);
  });
});

describe("runBundle under --enable-source-maps", () => {
  it("requires the bundle instead, uncached, so stack traces name the sources its source map gives", async () => {
    const dir = tempDir();
    // Line 2 of the bundle comes from line 10 of original.ts ("AASA": column 0, source 0, 9 lines on, column 0).
    writeFileSync(
      join(dir, "cli.cjs"),
      '"use strict";\nexports.fail = () => { throw new Error("from the bundle"); };\n//# sourceMappingURL=cli.cjs.map\n',
    );
    writeFileSync(
      join(dir, "cli.cjs.map"),
      JSON.stringify({ version: 3, file: "cli.cjs", sources: ["original.ts"], names: [], mappings: "AAAA;AASA" }),
    );
    const loader = fileURLToPath(new URL("./bundle-loader.ts", import.meta.url));
    const script = [
      `import { runBundle } from ${JSON.stringify(loader)};`,
      `const run = runBundle(${JSON.stringify(join(dir, "cli.cjs"))}, { externals: {}, importModule: (s) => import(s), cacheDir: ${JSON.stringify(join(dir, "cache"))} });`,
      "try { run.exports.fail(); } catch (error) { console.log(JSON.stringify({ stack: error.stack, fromCache: run.filesFromCache })); }",
    ].join("\n");
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ["--enable-source-maps", "--import", "tsx", "--input-type=module", "-e", script],
        (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout)),
      ),
    );
    const { stack, fromCache } = JSON.parse(out) as { stack: string; fromCache: number };
    expect(stack).toContain(`${join(dir, "original.ts")}:10:`);
    expect(fromCache).toBe(0);
    expect(existsSync(join(dir, "cache"))).toBe(false);
  });
});

describe("defaultCacheDir", () => {
  it("is node_modules/.cache/authsim in the node_modules the package is installed in", () => {
    expect(defaultCacheDir("/work/app/node_modules/authsim/dist/cli/cli.cjs")).toBe(
      "/work/app/node_modules/.cache/authsim",
    );
  });

  it("is the package's own node_modules/.cache/authsim when run from a checkout", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "dist", "cli"), { recursive: true });
    writeFileSync(join(dir, "package.json"), "{}");
    expect(defaultCacheDir(join(dir, "dist", "cli", "cli.cjs"))).toBe(join(dir, "node_modules", ".cache", "authsim"));
  });
});
