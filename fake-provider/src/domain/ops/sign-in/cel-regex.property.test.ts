import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { compileMatchesPattern, InvalidPattern, loadPatternEngine } from "./cel-regex.ts";

/**
 * `matches()` patterns (domain/ops/sign-in/cel-regex.ts): JavaScript's syntax and meaning, RE2's running time. Random patterns
 * of JavaScript's syntax, Annex B oddities included, must match what `new RegExp` matches on random texts.
 */

const atom = fc.oneof(
  fc.constantFrom(
    "a",
    "b",
    "@",
    ".",
    "-",
    " ",
    "\\.",
    "\\d",
    "\\D",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\b",
    "\\B",
    "\\x41",
    "\\u0062",
    "\\t",
    "\\0",
    "\\07",
    "\\8",
    "\\cJ",
    "\\c",
    "\\q",
    "\\-",
  ),
  fc.constantFrom(
    "[ab]",
    "[^ab]",
    "[a-c]",
    "[\\d-z]",
    "[-a]",
    "[a-]",
    "[\\s]",
    "[\\S]",
    "[\\b]",
    "[]",
    "[^]",
    "[.]",
    "[\\]]",
    "[\\w@]",
    "[\\x41-\\x43]",
    "[\\cJ]",
  ),
  fc.constantFrom("{", "}", "]", "a{2}", "a{1,3}", "a{,2}", "x{2,}", "\u00e9", "\u2028", "\n"),
);
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "*?", "+?", "{0,2}", "{2}");
const pattern: fc.Arbitrary<string> = fc
  .letrec<{ seq: string; alt: string; group: string }>((tie) => ({
    seq: fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) },
          { weight: 1, arbitrary: tie("group") },
        ),
        { maxLength: 4 },
      )
      .map((xs) => xs.join("")),
    alt: fc.array(tie("seq"), { minLength: 1, maxLength: 3 }).map((xs) => xs.join("|")),
    group: fc
      .tuple(fc.constantFrom("(", "(?:", "(?<n>", "(?<=", "(?<!"), tie("alt"), quantifier)
      .map(([open, inner, q]) => `${open}${inner})${open.startsWith("(?<") && open !== "(?<n>" ? "" : q}`),
  }))
  .alt.chain((p) => fc.constantFrom(p, `^${p}`, `${p}$`, `^${p}$`));
const text = fc
  .array(
    fc.constantFrom(
      "a",
      "b",
      "c",
      "A",
      "B",
      "@",
      ".",
      "-",
      " ",
      "\t",
      "\n",
      "\u00a0",
      "\u2028",
      "1",
      "9",
      "_",
      "\u00e9",
      "\b",
    ),
    { maxLength: 10 },
  )
  .map((cs) => cs.join(""));

function jsValid(p: string): boolean {
  try {
    new RegExp(p);
    return true;
  } catch {
    return false;
  }
}

describe("matches() patterns", () => {
  // The engine loads on demand (cel-regex.ts); the sign-up ops await it before they evaluate a rule.
  beforeAll(loadPatternEngine);
  it("match what JavaScript's RegExp matches, for every pattern it accepts that has no back-reference or lookahead", () => {
    let compared = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 1, maxLength: 6 }), (p, texts) => {
        fc.pre(jsValid(p));
        const test = compileMatchesPattern(p);
        expect(test, p).not.toBeNull();
        for (const t of texts)
          expect(test!(t), `${JSON.stringify(p)} on ${JSON.stringify(t)}`).toBe(new RegExp(p).test(t));
        compared++;
      }),
      { numRuns: 3000 },
    );
    expect(compared).toBeGreaterThan(1000);
  });

  it("refuses what JavaScript refuses, with its reason", () => {
    for (const bad of ["(", "a)", "[b-a]", "*", "a{2,1}", "\\", "(?<n>a)(?<n>b)"]) {
      expect(() => compileMatchesPattern(bad), bad).toThrow(InvalidPattern);
    }
  });

  it("answers null for what RE2 cannot run in linear time", () => {
    for (const p of ["(a)\\1", "(?<x>a)\\k<x>", "a(?=b)", "a(?!b)", "a{1001}", "(?<=(a)\\1)b"])
      expect(compileMatchesPattern(p), p).toBeNull();
    // Not back-references: more groups named than exist (a legacy octal escape), or inside a class.
    expect(compileMatchesPattern("(a)\\2")!("a\x02")).toBe(true);
    expect(compileMatchesPattern("(a)[\\1]")!("a\x01")).toBe(true);
  });

  it("runs the issue's backtracking pattern in linear time", () => {
    const test = compileMatchesPattern("^([a-z0-9]+)+@corp\\.example$")!;
    expect(test(`${"a".repeat(30)}@corp.example`)).toBe(true);
    // Exponential for a backtracking engine: 2^100000 paths. RE2 reads each character a bounded number of times.
    expect(test(`${"a".repeat(100_000)}!@corp.example`)).toBe(false);
  });
});
