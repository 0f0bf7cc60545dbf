import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDashboard } from "../dashboard/build.ts";
import { ensureBuilt, needsBuild, type Bundle } from "./ensure-built.ts";
import { INPUTS_FILE, recordedInputs, recordInputs } from "./recorded-inputs.ts";

/** A build's record of its own inputs, and the freshness check that watches them (recorded-inputs.ts). */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "authsim-inputs-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const FUTURE = 4_000_000_000;

describe("recording a build's inputs", () => {
  it("watches a file the bundle imports from outside its directory, without listing it anywhere", async () => {
    const root = join(dir, "app");
    const common = join(dir, "common", "lib.ts");
    await mkdir(root, { recursive: true });
    await mkdir(dirname(common), { recursive: true });
    await writeFile(join(root, "index.html"), '<!doctype html><script type="module" src="./main.ts"></script>');
    await writeFile(
      join(root, "main.ts"),
      'import { answer } from "../common/lib.ts";\ndocument.title = String(answer);\n',
    );
    await writeFile(common, "export const answer = 42;\n");
    const bundle: Bundle = {
      name: "app",
      dist: join(root, "dist"),
      sources: [join(root, "index.html"), join(root, "main.ts")],
      recordsInputs: true,
      async build(outDir) {
        const { build } = await import("vite");
        await build({
          root,
          configFile: false,
          logLevel: "silent",
          build: { outDir, emptyOutDir: true },
          plugins: [recordInputs()],
        });
      },
    };
    await utimes(common, 1_000, 1_000);
    expect((await ensureBuilt(bundle)).built).toBe(true);
    expect((await recordedInputs(bundle.dist))?.sort()).toEqual(
      [join(root, "index.html"), join(root, "main.ts"), common].sort(),
    );
    expect((await ensureBuilt(bundle)).built).toBe(false);
    // Only the record knows about lib.ts: editing it makes the build stale.
    await utimes(common, FUTURE, FUTURE);
    expect(await needsBuild(bundle.dist, bundle.sources, bundle)).toBe(true);
    expect((await ensureBuilt(bundle)).built).toBe(true);
    await utimes(common, 1_000, 1_000);
    expect(await needsBuild(bundle.dist, bundle.sources, bundle)).toBe(false);
  });

  it("counts a build without a readable record, or whose recorded file is gone, as stale", async () => {
    const dist = join(dir, "unrecorded");
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, "index.html"), "built");
    expect(await needsBuild(dist, [], { recordsInputs: true })).toBe(true);
    expect(await needsBuild(dist, [])).toBe(false);
    await writeFile(join(dist, INPUTS_FILE), "not json");
    expect(await needsBuild(dist, [], { recordsInputs: true })).toBe(true);
    await writeFile(join(dist, INPUTS_FILE), JSON.stringify(["../gone.ts"]));
    expect(await needsBuild(dist, [], { recordsInputs: true })).toBe(true);
    await writeFile(join(dist, "here.ts"), "x");
    await utimes(join(dist, "here.ts"), 1_000, 1_000);
    await writeFile(join(dist, INPUTS_FILE), JSON.stringify(["here.ts"]));
    expect(await needsBuild(dist, [], { recordsInputs: true })).toBe(false);
  });

  it("records every file outside dashboard/ the dashboard imports (the CLI's env lines, the hosted pages' config)", async () => {
    const out = join(dir, "dashboard-dist");
    await buildDashboard(out);
    const inputs = (await recordedInputs(out)) ?? [];
    const dashboardDir = fileURLToPath(new URL("../dashboard/", import.meta.url));
    const outside = inputs
      .filter((f) => !f.startsWith(dashboardDir))
      .map((f) => relative(resolve(dashboardDir, ".."), f).split(sep).join("/"));
    expect(outside).toEqual(expect.arrayContaining(["hosted/src/hosted-config.ts", "src/env-lines.ts"]));
    expect(inputs.some((f) => f.endsWith(join("dashboard", "src", "app.tsx")))).toBe(true);
    expect(JSON.parse(await readFile(join(out, INPUTS_FILE), "utf8"))).toHaveLength(inputs.length);
  });
});
