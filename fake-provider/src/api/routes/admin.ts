import { adminMiscRoutes } from "./admin-misc.ts";
import type { AnyRouteSpec } from "./define.ts";
import { emailRoutes } from "./emails.ts";
import { projectAdminRoutes } from "./project-admin.ts";
import { signUpRuleRoutes } from "./sign-up-rules.ts";

/** The admin surface of issue 6 (spec §7 Admin, Other), registered together in api/routes/index.ts. */
export const adminRoutes: Record<string, AnyRouteSpec> = {
  ...projectAdminRoutes,
  ...emailRoutes,
  ...adminMiscRoutes,
  ...signUpRuleRoutes,
};
