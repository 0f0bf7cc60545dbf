import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startVitest, type TestCase, type TestModule, type TestSuite } from "vitest/node";
import { parseRunnerArgs, targetEnv } from "./args.ts";
import { markdownReport, splitSkipReason, textSummary, totals, type CaseResult } from "./report.ts";

/**
 * `authsim-conformance`: runs every conformance suite against the provider named on the command line (through the
 * env-target suite), then prints a per-area summary ending in the plain "N passed, N failed" line and writes the JSON
 * report and the Markdown fidelity table. Node-only (the edge of the conformance package).
 */
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const suiteFile = "conformance/src/suites/env-target.test.ts";

function areaOf(test: TestCase): string {
  // module > "conformance: <target>" > <area> > … > test
  const chain: string[] = [];
  for (let p: TestSuite | TestModule = test.parent; p.type === "suite"; p = p.parent) chain.unshift(p.name);
  return chain[1] ?? chain[0] ?? "(top level)";
}

function collect(modules: readonly TestModule[]): CaseResult[] {
  const results: CaseResult[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      const r = test.result();
      const { title, reason } = splitSkipReason(test.name);
      const state = r.state === "failed" ? "failed" : r.state === "passed" ? "passed" : "skipped";
      results.push({
        area: areaOf(test),
        title,
        state,
        ...(state === "skipped" ? { reason: reason ?? "skipped" } : {}),
        ...(r.state === "failed" ? { error: r.errors.map((e) => e.message).join("\n") } : {}),
      });
    }
  }
  return results;
}

async function main(): Promise<number> {
  let options;
  try {
    options = parseRunnerArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  Object.assign(process.env, targetEnv(options));
  const vitest = await startVitest("test", [suiteFile], { root: repoRoot, run: true, watch: false, project: ["conformance"] }, {}, {});
  const modules = vitest.state.getTestModules();
  await vitest.close();
  const results = collect(modules);
  const target = options.baseUrl;
  console.log(`\n${textSummary(target, results)}`);
  writeFileSync(options.jsonReport, JSON.stringify({ target, totals: totals(results), results }, null, 2));
  writeFileSync(options.markdownReport, markdownReport(target, results));
  console.log(`\nWrote ${options.jsonReport} and ${options.markdownReport}.`);
  return totals(results).failed > 0 || results.length === 0 ? 1 : 0;
}

process.exitCode = await main();
