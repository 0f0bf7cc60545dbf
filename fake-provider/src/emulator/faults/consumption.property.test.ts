import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider } from "../../app.ts";
import type { FaultAction, FaultRuleInput } from "./rules.ts";

/**
 * Random rule lists and request sequences against a deliberately small model of the walk (rules.ts): in the order
 * added, a matching rule whose chance comes up acts; latency acts and the walk goes on; the first answering rule ends
 * it; only rules that acted are spent, and a rule with no count left disappears. Chances are 0 or 1 so the model needs
 * no random source; paths come from a tiny set so the model can match them by table rather than by matchesPath.
 */
const PATTERNS = ["/projects/current", "/projects/*", "/**", "/users/me"] as const;
const PATHS = ["/projects/current", "/users/me"] as const;
type Pattern = (typeof PATTERNS)[number];
type Path = (typeof PATHS)[number];

const matches = (pattern: Pattern, path: Path) =>
  pattern === "/**" || pattern === path || (pattern === "/projects/*" && path.startsWith("/projects/"));

/** Each status rule answers a status of its own (500 + its index), so the answer names the rule that gave it. */
const ruleSpec = fc.record({
  kind: fc.constantFrom("latency", "status", "known-error", "drop"),
  path: fc.constantFrom(...PATTERNS),
  // Requests are all GETs: a POST rule must never match.
  method: fc.constantFrom<"GET" | "POST" | undefined>("GET", "POST", undefined),
  times: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  probability: fc.constantFrom(0, 1),
});
type RuleSpec = typeof ruleSpec extends fc.Arbitrary<infer T> ? T : never;

function actionOf(spec: RuleSpec, index: number): FaultAction {
  if (spec.kind === "latency") return { type: "latency", millis: 0 };
  if (spec.kind === "known-error") return { type: "known-error", code: "PROJECT_NOT_FOUND" };
  if (spec.kind === "drop") return { type: "drop" };
  return { type: "status", status: 500 + index };
}

interface ModelRule {
  id: string;
  spec: RuleSpec;
  status: number | null;
  remaining: number | null;
  hits: number;
}

/** The model: which rules act on one request (spending them), in order. */
function walk(rules: ModelRule[], path: Path): ModelRule[] {
  const acted: ModelRule[] = [];
  for (const rule of rules) {
    if (rule.spec.method === "POST" || !matches(rule.spec.path, path) || rule.spec.probability === 0) continue;
    rule.hits++;
    if (rule.remaining !== null) rule.remaining--;
    acted.push(rule);
    if (rule.spec.kind !== "latency") break;
  }
  return acted;
}

const FIRED = /^fault rule ([0-9a-f-]+) /;

describe("fault rules (property)", () => {
  it("act and are spent exactly as the model says, for any rule list and request sequence", async () => {
    const p = createFakeProvider({ clock: manualClock(Date.UTC(2026, 0, 1)), ids: seededRandom("fault-model") });
    const headers = { "x-stack-access-type": "client", "x-stack-project-id": dev.id };
    await fc.assert(
      fc.asyncProperty(
        fc.array(ruleSpec, { maxLength: 6 }),
        fc.array(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 8 }),
        async (specs, paths) => {
          p.faults.clear();
          let model: ModelRule[] = specs.map((spec, i) => {
            const action = actionOf(spec, i);
            const input: FaultRuleInput = {
              path: spec.path,
              times: spec.times,
              probability: spec.probability,
              action,
              ...(spec.method ? { method: spec.method } : {}),
            };
            return {
              id: p.faults.add(input).id,
              spec,
              status: action.type === "status" ? action.status : null,
              remaining: spec.times,
              hits: 0,
            };
          });
          for (const path of paths) {
            const acted = walk(model, path);
            model = model.filter((r) => r.remaining === null || r.remaining > 0);
            const answer = acted.at(-1)?.spec.kind === "latency" ? undefined : acted.at(-1);

            const outcome = await p.fetch(`http://x/api/v1${path}`, { headers }).then(
              (r) => ({ status: r.status, knownError: r.headers.get("x-stack-known-error") }),
              (e: unknown) => ({ dropped: e instanceof TypeError }),
            );
            if (answer?.spec.kind === "drop") expect(outcome).toEqual({ dropped: true });
            else if (answer?.spec.kind === "known-error")
              expect(outcome).toEqual({ status: 404, knownError: "PROJECT_NOT_FOUND" });
            else if (answer) expect(outcome).toEqual({ status: answer.status, knownError: null });
            // No answering rule: the operation answered (a 200, or /users/me's own error without a token).
            else expect(outcome).not.toHaveProperty("dropped");

            const why = p.requestLog.list().at(-1)!.why;
            const fired = why.map((w) => FIRED.exec(w)?.[1]).filter((id) => id !== undefined);
            expect(fired).toEqual(acted.map((r) => r.id));
            expect(p.faults.list().map(({ id, remaining, hits }) => ({ id, remaining, hits }))).toEqual(
              model.map(({ id, remaining, hits }) => ({ id, remaining, hits })),
            );
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
