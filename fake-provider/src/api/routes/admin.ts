import { adminMiscRoutes } from "./admin-misc.ts";
import type { RouteTable } from "./define.ts";
import { emailRoutes } from "./emails.ts";
import { managedEmailRoutes } from "./managed-email.ts";
import { onboardingRoutes } from "./onboarding.ts";
import { projectAdminRoutes } from "./project-admin.ts";
import { signUpRuleRoutes } from "./sign-up-rules.ts";

/** The admin surface of issue 6 (spec §7 Admin, Other), registered together in api/routes/index.ts. */
export const adminRoutes: RouteTable = {
  ...projectAdminRoutes,
  ...emailRoutes,
  ...adminMiscRoutes,
  ...signUpRuleRoutes,
  ...managedEmailRoutes,
  ...onboardingRoutes,
};
