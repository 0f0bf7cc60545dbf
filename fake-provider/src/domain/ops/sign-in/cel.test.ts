import { beforeAll, describe, expect, it } from "vitest";
import { CelError, evaluateCelCondition } from "./cel.ts";
import { loadPatternEngine } from "./cel-regex.ts";

/** The CEL subset of sign-up rule conditions (domain/ops/sign-in/cel.ts). */

const vars = {
  email: "ada+x@example.com",
  emailDomain: "example.com",
  countryCode: "US",
  authMethod: "password",
  oauthProvider: "",
  riskScores: { bot: 33, free_trial_abuse: 44 },
};
const run = (expression: string) => evaluateCelCondition(expression, vars);

describe("CEL conditions", () => {
  // The engine loads on demand (cel-regex.ts); the sign-up ops await it before they evaluate a rule.
  beforeAll(loadPatternEngine);
  it("compares strings, numbers and booleans, and reads fields", () => {
    expect(run('email == "ada+x@example.com"')).toBe(true);
    expect(run('emailDomain != "example.com"')).toBe(false);
    expect(run("riskScores.bot >= 33 && riskScores.free_trial_abuse < 45")).toBe(true);
    expect(run("riskScores.bot > 50 || riskScores.bot == 33")).toBe(true);
    expect(run("true")).toBe(true);
    expect(run("!(1 + 2 * 3 == 7)")).toBe(false);
    expect(run('authMethod == "oauth" ? false : true')).toBe(true);
  });

  it("takes lists and `in`", () => {
    expect(run('countryCode in ["US", "CA"]')).toBe(true);
    expect(run('countryCode in ["CA"]')).toBe(false);
    expect(run('authMethod in ["password", "otp"]')).toBe(true);
    expect(run("size([1, 2]) == 2 && email.size() == 17")).toBe(true);
  });

  it("has contains, startsWith, endsWith and matches, literal where the pattern is a string", () => {
    expect(run('email.contains("+x")')).toBe(true);
    expect(run('email.startsWith("ada")')).toBe(true);
    expect(run('email.endsWith("@example.com")')).toBe(true);
    expect(run('email.contains("a+x") && !email.contains("a-x")')).toBe(true);
    expect(run('email.matches("^[a-z]+\\\\+x@")')).toBe(true);
    expect(evaluateCelCondition('email.matches("^(a)\\\\w")', { email: "aa@b.c" })).toBe(true);
    expect(evaluateCelCondition('email.matches("^(a)\\\\d")', { email: "ab@b.c" })).toBe(false);
    expect(evaluateCelCondition('email.contains("q\\"z")', { email: 'q"z@b.c' })).toBe(true);
  });

  it("treats an empty email like any other string", () => {
    const empty = { ...vars, email: "", emailDomain: "" };
    expect(evaluateCelCondition('email == ""', empty)).toBe(true);
    expect(evaluateCelCondition('email.contains("@")', empty)).toBe(false);
  });

  it("throws a CelError for a bad pattern, bad syntax, a non-boolean result, an unknown name or a type mismatch", () => {
    expect(() => run('email.matches("test(unclosed")')).toThrow(
      new CelError('Invalid regex pattern in matches(): "test(unclosed"'),
    );
    for (const bad of ["email ==", "email.nope()", '"a"', "unknown == 1", 'riskScores.bot > "x"', "((", "1 / 0 == 1"]) {
      expect(() => run(bad), bad).toThrow(CelError);
    }
    expect(() => run('"a"')).toThrow('CEL expression must evaluate to a boolean, got string: "a"');
  });

  it("decides && and || by a side that decides even when the other fails", () => {
    expect(run("false && unknown")).toBe(false);
    expect(run("unknown || true")).toBe(true);
    expect(() => run("true && unknown")).toThrow(CelError);
  });

  it("refuses, as an invalid pattern, what no linear-time engine can run: back-references and lookaheads", () => {
    for (const pattern of ["^(a)\\\\1", "^(?<x>a)\\\\k<x>", "^a(?=b)", "^a(?!b)"]) {
      expect(() => evaluateCelCondition(`email.matches("${pattern}")`, { email: "aa@b.c" }), pattern).toThrow(
        new CelError(`Invalid regex pattern in matches(): "${pattern.replaceAll("\\\\", "\\")}"`),
      );
    }
    // A lookbehind runs (re2js has linear-time lookbehinds).
    expect(evaluateCelCondition('email.matches("(?<=@)b\\\\.c$")', { email: "aa@b.c" })).toBe(true);
  });

  it("survives deep nesting as an evaluation error", () => {
    expect(() => run(`${"(".repeat(20_000)}true${")".repeat(20_000)}`)).toThrow(CelError);
  });
});
