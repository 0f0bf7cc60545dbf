import { testSignUpRules } from "../../domain/ops/sign-in/sign-up-rules.ts";
import { signUpRulesStats } from "../../domain/ops/sign-in/sign-up-rules-stats.ts";
import { ok, type RouteTable } from "./define.ts";

/** Sign-up rules: the admin's dry run and the trigger counts (the rules are config keys: api/routes/project-admin.ts). */
export const signUpRuleRoutes: RouteTable = {
  testSignUpRules: {
    handler: async ({ auth, ctx, body }) => ok(await testSignUpRules(ctx, auth.project.id, body)),
  },
  signUpRulesStats: { handler: ({ auth, ctx }) => ok(signUpRulesStats(ctx, auth.project.id)) },
};
