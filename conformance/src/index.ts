// @authsim/conformance: the suites and their targets, to run inside your own vitest file (the `authsim-conformance`
// command runs the same suites against a URL and writes the reports).
export {
  inProcessTarget,
  NO_CONTROLS_REASON,
  targetFromEnv,
  urlTarget,
  type Controls,
  type InProcessTarget,
  type SharedClock,
  type Target,
} from "./targets.ts";
export { allSuites, everySuite } from "./suites/all.ts";
export {
  markdownReport,
  splitSkipReason,
  summarize,
  textSummary,
  totals,
  type AreaSummary,
  type CaseResult,
} from "./runner/report.ts";
