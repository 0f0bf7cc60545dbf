import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createVitest, type TestModule, type Vitest } from "vitest/node";
import { areaOf, declaredCases, selectAreas, unknownAreasMessage } from "./areas.ts";
import { parseRunnerArgs, targetEnv } from "./args.ts";
import { markdownReport, splitSkipReason, textSummary, totals, type CaseResult } from "./report.ts";

/**
 * `authsim-conformance`: runs every conformance suite against the provider named on the command line (through the
 * env-target suite), then prints a per-area summary ending in the plain "N passed, N failed" line and writes the JSON
 * report and the Markdown fidelity table. `--area` narrows the run to named areas. Node-only (the edge of the conformance
 * package).
 */
// The package's root, from src/runner/ (the monorepo's sources) and from dist/runner/ (the installed package) alike; the
// suites run from the same layout as this file: sources under vitest's own transform, or the build as Node loads it.
const packageRoot = fileURLToPath(new URL("../../", import.meta.url));
const fromSources = import.meta.url.endsWith(".ts");
const suiteFile = fromSources ? "src/suites/env-target.test.ts" : "dist/suites/env-target.test.js";

/**
 * From sources (the monorepo), the workspace packages resolve to theirs too: their export maps' "@authsim/source"
 * condition. Vite is loaded only then; the installed package does not need it beside vitest.
 */
async function sourceResolution() {
  const { defaultClientConditions, defaultServerConditions } = await import("vite");
  return {
    resolve: { conditions: ["@authsim/source", ...defaultClientConditions] },
    ssr: { resolve: { conditions: ["@authsim/source", ...defaultServerConditions] } },
  };
}

/** Thrown for a wrong command line found only once the suites are declared (an unknown area): exit status 2. */
class UsageError extends Error {}

/**
 * Every area: one ordinary run. Some areas: the file is collected first (declaring the cases, running none), then only
 * the cases of those areas run, by vitest id; the other cases are left skipped and kept out of the report.
 */
async function runSuites(vitest: Vitest, areas: readonly string[]): Promise<TestModule[]> {
  if (areas.length === 0) return (await vitest.start([suiteFile])).testModules;
  const selection = selectAreas(declaredCases((await vitest.collect([suiteFile])).testModules), areas);
  if (selection.unknown.length > 0) throw new UsageError(unknownAreasMessage(selection));
  const spec = vitest
    .getProjectByName("conformance")
    .createSpecification(resolve(packageRoot, suiteFile), { testIds: selection.testIds });
  // What start() does before running: the reporters' onInit.
  await vitest.standalone();
  return (await vitest.runTestSpecifications([spec])).testModules;
}

function collect(modules: readonly TestModule[], areas: readonly string[]): CaseResult[] {
  const results: CaseResult[] = [];
  for (const module of modules) {
    for (const test of module.children.allTests()) {
      if (areas.length > 0 && !areas.includes(areaOf(test))) continue;
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
  // What vitest's own startVitest sets before createVitest (the config and the suites may read them).
  process.env.TEST = "true";
  process.env.VITEST = "true";
  process.env.NODE_ENV ??= "test";
  // A config of its own (no config file is read): the runner works the same from the monorepo and from node_modules.
  const vitest = await createVitest(
    "test",
    {
      root: packageRoot,
      config: false,
      name: "conformance",
      include: [suiteFile],
      exclude: [],
      run: true,
      watch: false,
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
    fromSources ? await sourceResolution() : {},
    {},
  );
  let modules: TestModule[];
  try {
    modules = await runSuites(vitest, options.areas);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  } finally {
    await vitest.close();
  }
  const results = collect(modules, options.areas);
  const target = options.baseUrl;
  console.log(`\n${textSummary(target, results)}`);
  writeFileSync(options.jsonReport, JSON.stringify({ target, totals: totals(results), results }, null, 2));
  writeFileSync(options.markdownReport, markdownReport(target, results));
  console.log(`\nWrote ${options.jsonReport} and ${options.markdownReport}.`);
  return totals(results).failed > 0 || results.length === 0 ? 1 : 0;
}

process.exitCode = await main();
