import { describe } from "vitest";
import { targetFromEnv, urlTarget } from "../targets.ts";
import { everySuite } from "./all.ts";

/**
 * Every suite against the provider named by AUTHSIM_TARGET_URL (with AUTHSIM_PROJECT_ID, the AUTHSIM_*_KEY variables,
 * and AUTHSIM_TARGET_IS_FAKE=false for a real service; see targets.ts). Without it the suites are listed as skipped:
 * the in-process and over-URL files already run them against the fake.
 */
const SKIP_REASON = "set AUTHSIM_TARGET_URL to run against another provider";

if (process.env.AUTHSIM_TARGET_URL) {
  const target = targetFromEnv();
  describe(`conformance: ${target.name}`, () => {
    everySuite(() => target);
  });
} else {
  // A placeholder that is never called: the cases are only declared, so the skipped list shows what would run.
  const unset = urlTarget({ baseUrl: "http://authsim-target-unset.invalid", hasControls: false });
  describe.skip(`conformance: provider from the environment (skipped: ${SKIP_REASON})`, () => {
    everySuite(() => unset);
  });
}
