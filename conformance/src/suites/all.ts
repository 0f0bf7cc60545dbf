import type { Target } from "../targets.ts";
import { accountCases } from "./account.case.ts";
import { apiKeyCases } from "./api-keys.case.ts";
import { contactChannelCases } from "./contact-channels.case.ts";
import { dataVaultCases } from "./data-vault.case.ts";
import { magicLinkCases } from "./magic-link.case.ts";
import { passwordFlowCases } from "./password-flows.case.ts";
import { paymentCases } from "./payments.case.ts";
import { permissionCases } from "./permissions.case.ts";
import { teamCases } from "./teams.case.ts";
import { currentUserCases } from "./current-user.case.ts";
import { errorCases } from "./errors.case.ts";
import { passwordAuthCases } from "./password-auth.case.ts";
import { projectCases } from "./projects.case.ts";
import { serverUserCases } from "./server-users.case.ts";
import { sessionCases } from "./sessions.case.ts";
import { userCases } from "./users.case.ts";
import { adminEmailCases } from "./admin-emails.case.ts";
import { adminMiscCases } from "./admin-misc.case.ts";
import { adminProjectCases } from "./admin-project.case.ts";
import { strongAuthSuites } from "./strong-auth.case.ts";
import { integrationCases } from "./integrations.case.ts";

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

/**
 * Every area, for a target named from outside (env-target.test.ts and the authsim-conformance runner). The in-process
 * and over-URL files run only the spine through `allSuites`: each other area has its own runner file there.
 */
export function everySuite(getTarget: () => Target): void {
  allSuites(getTarget);
  contactChannelCases(getTarget);
  passwordFlowCases(getTarget);
  magicLinkCases(getTarget);
  accountCases(getTarget);
  apiKeyCases(getTarget);
  teamCases(getTarget);
  permissionCases(getTarget);
  paymentCases(getTarget);
  dataVaultCases(getTarget);
  // The admin surface (issue 6): project administration, owned projects, email, metrics.
  adminProjectCases(getTarget);
  adminEmailCases(getTarget);
  adminMiscCases(getTarget);
  // Strong auth (issue 5): OAuth, provider links, MFA, passkeys, CLI login.
  strongAuthSuites(getTarget);
  // The Neon and custom integrations (issue 27): provisioning, transfer, their OpenID Connect provider.
  integrationCases(getTarget);
}
