/**
 * Faults as data, msw-style (`use()` / `resetHandlers()` / `once`): a rule matches method + path (+ project) and
 * answers a status, a known error, added latency, or a dropped connection — once, N times or until removed, with a
 * seedable probability.
 *
 * A request walks the rules in the order they were added. A latency rule that fires waits and the walk goes on, so
 * latency stacks with later latency rules and with the answering rule after it; the first status, known-error or drop
 * rule that fires answers and ends the walk. A rule is spent (`remaining` down, `hits` up) only when it acts: a
 * latency rule that waited counts as fired; a rule after the answering one is untouched.
 */
// The rule's input and its view are the control plane's (POST/GET /__emulator/faults), defined once there.
export {
  faultAction,
  faultRuleInput,
  type FaultAction,
  type FaultRule,
  type FaultRuleInput,
} from "@authsim/sdk/emulator";

/** Whether an /api/v1-relative path matches a rule's path pattern. */
export function matchesPath(pattern: string, path: string): boolean {
  const want = pattern.split("/").filter(Boolean);
  const got = path.split("/").filter(Boolean);
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === "**") return true;
    if (i >= got.length) return false;
    if (w !== "*" && !w.startsWith(":") && w !== got[i]) return false;
  }
  return want.length === got.length;
}
