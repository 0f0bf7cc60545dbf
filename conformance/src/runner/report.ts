/** Turns case results into the per-area summary, the JSON report and the Markdown fidelity table. */
export interface CaseResult {
  area: string;
  title: string;
  state: "passed" | "failed" | "skipped";
  /** Why it was skipped (every skip carries one: design rule 7). */
  reason?: string;
  /** The first error of a failed case. */
  error?: string;
}

export interface AreaSummary {
  area: string;
  passed: number;
  failed: number;
  skipped: number;
}

const SKIP_SUFFIX = /\s*\(skipped: (.*)\)$/;

/** Case titles carry their skip reason as "… (skipped: reason)"; split it off. */
export function splitSkipReason(title: string): { title: string; reason?: string } {
  const m = SKIP_SUFFIX.exec(title);
  return m ? { title: title.slice(0, m.index), reason: m[1]! } : { title };
}

export function summarize(results: readonly CaseResult[]): AreaSummary[] {
  const byArea = new Map<string, AreaSummary>();
  for (const r of results) {
    const s = byArea.get(r.area) ?? { area: r.area, passed: 0, failed: 0, skipped: 0 };
    s[r.state]++;
    byArea.set(r.area, s);
  }
  return [...byArea.values()];
}

export function totals(results: readonly CaseResult[]) {
  return {
    passed: results.filter((r) => r.state === "passed").length,
    failed: results.filter((r) => r.state === "failed").length,
    skipped: results.filter((r) => r.state === "skipped").length,
  };
}

export function textSummary(target: string, results: readonly CaseResult[]): string {
  const lines = [`Conformance against ${target}`, ""];
  const width = Math.max(4, ...summarize(results).map((s) => s.area.length));
  for (const s of summarize(results))
    lines.push(`  ${s.area.padEnd(width)}  ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
  const failures = results.filter((r) => r.state === "failed");
  if (failures.length) {
    lines.push("", "Failures:");
    for (const f of failures) lines.push(`  ✗ ${f.area} › ${f.title}`, `      ${(f.error ?? "").split("\n")[0]}`);
  }
  const t = totals(results);
  // The plain closing line CI systems read.
  lines.push("", `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  return lines.join("\n");
}

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function markdownReport(target: string, results: readonly CaseResult[]): string {
  const t = totals(results);
  const lines = [
    `# Conformance fidelity: ${target}`,
    "",
    `${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped.`,
    "",
    "| area | passed | failed | skipped |",
    "|---|---|---|---|",
    ...summarize(results).map((s) => `| ${cell(s.area)} | ${s.passed} | ${s.failed} | ${s.skipped} |`),
    "",
    "| area | case | result | note |",
    "|---|---|---|---|",
    ...results.map(
      (r) =>
        `| ${cell(r.area)} | ${cell(r.title)} | ${r.state === "passed" ? "✓" : r.state === "failed" ? "✗" : "skipped"} | ${cell(r.reason ?? r.error?.split("\n")[0] ?? "")} |`,
    ),
  ];
  return lines.join("\n") + "\n";
}
