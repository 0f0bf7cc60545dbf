import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFakeProvider, type ServedProvider } from "../harness/serve.ts";
import type { CaseResult } from "./report.ts";

/**
 * The `authsim-conformance` command as a user runs it: its runner (src/runner/run.ts, what bin/authsim-conformance.js runs built) in a child process,
 * against a fake served on a loopback port by this test, for two areas only (so it stays within a few seconds). One
 * fault rule fails the first case on purpose: that proves the run reached this fake, and shows a failure reaching the
 * summary line, both reports and the exit status.
 */
// The runner from its sources (the installed command, bin/ over dist/, is run by scripts/packages.test.ts).
const runner = fileURLToPath(new URL("./run.ts", import.meta.url));
// tsx by absolute URL: the child runs in a scratch directory, where a bare "tsx" resolves to nothing.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const AREAS = ["password auth", "known errors through the SDK"];

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runBin(args: readonly string[], cwd: string): Promise<Finished> {
  // The child starts its own vitest: the variables of this test's worker would make it think it is one of ours.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST")));
  const child = spawn(process.execPath, ["--conditions=@authsim/source", "--import", tsxLoader, runner, ...args], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the authsim-conformance command", () => {
  let served: ServedProvider;
  let dir: string;
  beforeAll(async () => {
    served = await serveFakeProvider();
    dir = await mkdtemp(join(tmpdir(), "authsim-conformance-bin-"));
  });
  afterAll(async () => {
    await served?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs the named areas against a served fake, prints the plain totals line, writes both reports, exits 1 on a failure", async () => {
    // The first case of "password auth" signs up first: its sign-up gets a 500 it cannot pass with.
    served.provider.faults.add({
      method: "POST",
      path: "/auth/password/sign-up",
      action: { type: "status", status: 500, body: "forced by bin.test.ts" },
    });
    const json = join(dir, "report.json");
    const md = join(dir, "report.md");
    const run = await runBin(
      ["--base-url", served.baseUrl, ...AREAS.flatMap((a) => ["--area", a]), "--report", json, "--markdown", md],
      dir,
    );
    const output = `${run.stdout}\n${run.stderr}`;

    expect(served.provider.faults.list(), output).toEqual([]);
    expect(run.code, output).toBe(1);
    const plain = /^(\d+) passed, (\d+) failed, (\d+) skipped$/m.exec(run.stdout);
    expect(plain, output).not.toBeNull();
    const [passed, failed, skipped] = plain!.slice(1).map(Number) as [number, number, number];
    expect(failed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeGreaterThan(0);
    expect(run.stdout).toContain("Failures:");

    const report = JSON.parse(await readFile(json, "utf8")) as {
      target: string;
      totals: Record<string, number>;
      results: CaseResult[];
    };
    expect(report.target).toBe(served.baseUrl);
    expect(report.totals).toEqual({ passed, failed, skipped });
    expect(report.results).toHaveLength(passed + failed + skipped);
    // Only the named areas, every one of them.
    expect([...new Set(report.results.map((r) => r.area))].sort()).toEqual([...AREAS].sort());
    expect(report.results[0]).toMatchObject({ area: "password auth", state: "failed" });

    const markdown = await readFile(md, "utf8");
    expect(markdown).toContain(`${passed} passed, ${failed} failed, ${skipped} skipped.`);
    expect(markdown).toContain("| area | passed | failed | skipped |\n|---|---|---|---|\n");
    for (const area of AREAS) {
      const rows = report.results.filter((r) => r.area === area);
      const count = (state: CaseResult["state"]) => rows.filter((r) => r.state === state).length;
      expect(markdown).toContain(`| ${area} | ${count("passed")} | ${count("failed")} | ${count("skipped")} |`);
    }
    expect(markdown).toContain(`| password auth | ${report.results[0]!.title} | ✗ |`);
  }, 30_000);
});
