import type { TestCase, TestModule, TestSuite } from "vitest/node";

/**
 * Areas of the conformance run: the describe blocks right under "conformance: <target>" ("password auth", "data vault",
 * …), the rows of the report. `--area NAME` picks cases by exact area name, never by pattern: a name pattern for "MFA"
 * would also run "MFA after OAuth".
 */
export function areaOf(test: TestCase): string {
  // module > "conformance: <target>" > <area> > … > test
  const chain: string[] = [];
  for (let p: TestSuite | TestModule = test.parent; p.type === "suite"; p = p.parent) chain.unshift(p.name);
  return chain[1] ?? chain[0] ?? "(top level)";
}

/** A declared case: vitest's id (to run it alone) and its area. */
export interface DeclaredCase {
  id: string;
  area: string;
}

export function declaredCases(modules: readonly TestModule[]): DeclaredCase[] {
  return modules.flatMap((m) => [...m.children.allTests()].map((test) => ({ id: test.id, area: areaOf(test) })));
}

export interface AreaSelection {
  /** The ids of every case in the wanted areas, in declaration order. */
  testIds: string[];
  /** Wanted names that are no area of this run. */
  unknown: string[];
  /** Every area of this run, in declaration order (for the error message). */
  known: string[];
}

export function selectAreas(cases: readonly DeclaredCase[], wanted: readonly string[]): AreaSelection {
  const known = [...new Set(cases.map((c) => c.area))];
  return {
    testIds: cases.filter((c) => wanted.includes(c.area)).map((c) => c.id),
    unknown: wanted.filter((w) => !known.includes(w)),
    known,
  };
}

export function unknownAreasMessage(selection: AreaSelection): string {
  return `Unknown area${selection.unknown.length > 1 ? "s" : ""}: ${selection.unknown.map((a) => JSON.stringify(a)).join(", ")}.\n\nAreas:\n${selection.known.map((a) => `  ${a}`).join("\n")}`;
}
