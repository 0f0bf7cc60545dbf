import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileWildcard, type WildcardPart } from "./wildcard.ts";

/** The wildcard matcher (runtime/wildcard.ts) against the regular expression it replaces, on inputs small enough for it. */

const escape = (c: string) => c.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
const reference = (parts: readonly WildcardPart[]) =>
  new RegExp(
    `^${parts.map((p) => (p.kind === "char" ? escape(p.char) : p.kind === "one" ? "[^]" : p.except === undefined ? "[^]*" : `[^${escape(p.except)}]*`)).join("")}$`,
  );

const alphabet = fc.constantFrom("a", "b", ".", "-");
const part = (runsStop: boolean): fc.Arbitrary<WildcardPart> =>
  fc.oneof(
    alphabet.map((char) => ({ kind: "char", char }) as const),
    fc.constant({ kind: "one" } as const),
    fc.constant(runsStop ? ({ kind: "run", except: "." } as const) : ({ kind: "run" } as const)),
    fc.constant({ kind: "run" } as const),
  );
const text = fc.array(alphabet, { maxLength: 14 }).map((cs) => cs.join(""));

describe("wildcard patterns", () => {
  it("match exactly what the equivalent regular expression matches (greedy and automaton forms)", () => {
    for (const runsStop of [false, true]) {
      fc.assert(
        fc.property(
          fc.array(part(runsStop), { maxLength: 8 }),
          text,
          (parts, t) => compileWildcard(parts).matches(t) === reference(parts).test(t),
        ),
        { numRuns: 3000 },
      );
    }
  });

  it("count their steps, so a caller's budget can stop a long match", () => {
    const steps: number[] = [];
    const parts: WildcardPart[] = [
      { kind: "run", except: "." },
      { kind: "char", char: "-" },
      { kind: "run", except: "." },
      { kind: "char", char: "x" },
    ];
    expect(compileWildcard(parts).matches("a-b-c-x", (n) => steps.push(n))).toBe(true);
    expect(steps.length).toBeGreaterThan(0);
    expect(() =>
      compileWildcard(parts).matches("a-".repeat(100), () => {
        throw new RangeError("over budget");
      }),
    ).toThrow("over budget");
  });

  it("takes work linear in the text for a pattern that backtracks as a regular expression", () => {
    // `*-*-*-*-*.x` against a long host of hyphens: exponential-ish for a backtracking engine, a few steps per character here.
    const run: WildcardPart = { kind: "run", except: "." };
    const parts: WildcardPart[] = [
      run,
      { kind: "char", char: "-" },
      run,
      { kind: "char", char: "-" },
      run,
      { kind: "char", char: "-" },
      run,
      { kind: "char", char: "." },
      { kind: "char", char: "x" },
    ];
    let steps = 0;
    expect(compileWildcard(parts).matches(`${"a-".repeat(50_000)}!`, (n) => (steps += n))).toBe(false);
    expect(steps).toBeLessThanOrEqual(100_001 * (parts.length + 1));
    let greedySteps = 0;
    const anyRun: WildcardPart = { kind: "run" };
    const glob: WildcardPart[] = Array.from({ length: 200 }, (): WildcardPart[] => [
      anyRun,
      { kind: "char", char: "a" },
    ]).flat();
    expect(
      compileWildcard([...glob, { kind: "char", char: "b" }]).matches("a".repeat(5_000), (n) => (greedySteps += n)),
    ).toBe(false);
    expect(greedySteps).toBeLessThanOrEqual(5_000 * 4);
  });
});
