import type { Target } from "../targets.ts";
import { currentUserCases } from "./current-user.case.ts";
import { errorCases } from "./errors.case.ts";
import { passwordAuthCases } from "./password-auth.case.ts";
import { projectCases } from "./projects.case.ts";
import { serverUserCases } from "./server-users.case.ts";
import { sessionCases } from "./sessions.case.ts";
import { userCases } from "./users.case.ts";

/**
 * Every conformance suite, declared against one target. `getTarget` is read when the cases are declared (to decide
 * which skip, each with its reason) and again inside each case, so a runner may hand out a fresh target per test.
 */
export function allSuites(getTarget: () => Target): void {
  passwordAuthCases(getTarget);
  currentUserCases(getTarget);
  userCases(getTarget);
  sessionCases(getTarget);
  serverUserCases(getTarget);
  projectCases(getTarget);
  errorCases(getTarget);
}
