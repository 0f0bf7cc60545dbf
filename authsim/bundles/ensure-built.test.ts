import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, ensureBuiltNote, needsBuild, type Bundle } from "./ensure-built.ts";

/** Freshness of a bundle's build and its atomic replacement (the dashboard and the hosted pages both use these). */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "authsim-bundles-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A bundle whose "build" writes one index.html naming the build's number, counting its builds. */
function fakeBundle(name: string): Bundle & { builds: number } {
  const src = join(dir, name, "src");
  const bundle = {
    name,
    dist: join(dir, name, "dist"),
    sources: [src],
    builds: 0,
    async build(outDir: string) {
      bundle.builds += 1;
      await mkdir(outDir, { recursive: true });
      await writeFile(join(outDir, "index.html"), `build ${bundle.builds}`);
    },
  };
  return bundle;
}

describe("building a bundle when it is stale", () => {
  it("needs a build when the output is missing or older than a source, but not for a test beside the code", async () => {
    const src = join(dir, "fresh", "src");
    const out = join(dir, "fresh", "out");
    await mkdir(join(src, "panels"), { recursive: true });
    await mkdir(out, { recursive: true });
    await writeFile(join(src, "panels", "a.tsx"), "x");
    await writeFile(join(src, "panels", "a.test.tsx"), "x");
    expect(await needsBuild(out, [src])).toBe(true);
    await writeFile(join(out, "index.html"), "built");
    await utimes(join(src, "panels", "a.tsx"), 1_000, 1_000);
    await utimes(join(src, "panels", "a.test.tsx"), 4_000_000_000, 4_000_000_000);
    expect(await needsBuild(out, [src])).toBe(false);
    await utimes(join(src, "panels", "a.tsx"), 4_000_000_000, 4_000_000_000);
    expect(await needsBuild(out, [src])).toBe(true);
  });

  it("builds into a scratch directory, moves it into place, and leaves nothing else behind", async () => {
    const bundle = fakeBundle("atomic");
    await mkdir(bundle.sources[0]!, { recursive: true });
    await writeFile(join(bundle.sources[0]!, "main.tsx"), "x");
    expect((await ensureBuilt(bundle, () => 0)).built).toBe(true);
    expect(await readFile(join(bundle.dist, "index.html"), "utf8")).toBe("build 1");
    expect(await ensureBuilt(bundle)).toEqual({ built: false, millis: 0, dist: bundle.dist });
    // A source edited after the build replaces the old output whole.
    await utimes(join(bundle.sources[0]!, "main.tsx"), 4_000_000_000, 4_000_000_000);
    expect((await ensureBuilt(bundle)).built).toBe(true);
    expect(await readFile(join(bundle.dist, "index.html"), "utf8")).toBe("build 2");
    expect((await readdir(join(dir, "atomic"))).sort()).toEqual(["dist", "src"]);
  });

  it("keeps a concurrent server's build that finished first, and reports a failed build in the banner's words", async () => {
    const bundle = fakeBundle("race");
    await mkdir(bundle.sources[0]!, { recursive: true });
    await writeFile(join(bundle.sources[0]!, "main.tsx"), "x");
    await utimes(join(bundle.sources[0]!, "main.tsx"), 1_000, 1_000);
    const racing: Bundle = {
      ...bundle,
      // While this build runs, "another server" puts a fresh build in place.
      async build(outDir) {
        await mkdir(bundle.dist, { recursive: true });
        await writeFile(join(bundle.dist, "index.html"), "the other server's build");
        await bundle.build(outDir);
      },
    };
    expect((await ensureBuilt(racing)).built).toBe(true);
    expect(await readFile(join(bundle.dist, "index.html"), "utf8")).toBe("the other server's build");
    expect((await readdir(join(dir, "race"))).sort()).toEqual(["dist", "src"]);

    const broken: Bundle = {
      ...bundle,
      dist: join(dir, "broken", "dist"),
      build: () => Promise.reject(new Error("syntax error in main.tsx")),
    };
    expect(await ensureBuiltNote(broken)).toBe("not built (syntax error in main.tsx)");
    expect(existsSync(broken.dist)).toBe(false);
  });
});
