/**
 * The slowest test files, from the JSON report every `npm test` (vitest run) writes beside its usual output
 * (vitest.config.ts: test-artifacts/vitest-report.json; BENCH_VITEST_REPORT names another).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { relative } from "node:path";

interface Report {
  testResults?: { name: string; startTime?: number; endTime?: number; status?: string }[];
}

export function slowestTestFiles(count = 10): string[] {
  const file = process.env.BENCH_VITEST_REPORT ?? "test-artifacts/vitest-report.json";
  if (!existsSync(file)) return [`no test report at ${file} to list the slowest test files from: run npm test first`];
  const report = JSON.parse(readFileSync(file, "utf8")) as Report;
  const files = (report.testResults ?? [])
    .filter((r) => r.startTime !== undefined && r.endTime !== undefined)
    .map((r) => ({ name: relative(process.cwd(), r.name), millis: r.endTime! - r.startTime!, status: r.status ?? "" }))
    .sort((a, b) => b.millis - a.millis);
  const total = files.reduce((a, f) => a + f.millis, 0);
  return [
    `slowest test files (${file}, written ${statSync(file).mtime.toISOString()}; ${files.length} files, ${(total / 1000).toFixed(0)} s summed over workers):`,
    ...files
      .slice(0, count)
      .map(
        (f) =>
          `  ${(f.millis / 1000).toFixed(1).padStart(6)} s  ${f.name}${f.status === "passed" ? "" : ` (${f.status})`}`,
      ),
  ];
}
