import { signUpRulesTestBody } from "@authsim/sdk/contract";
import { signUpRulesStats, testSignUpRules } from "../../domain/ops/sign-up-rules.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** Sign-up rules: the admin's dry run and the trigger counts (the rules are config keys: api/routes/project-admin.ts). */
export const signUpRuleRoutes: Record<string, AnyRouteSpec> = {
  testSignUpRules: route({
    body: signUpRulesTestBody,
    handler: ({ auth, ctx, body }) => ok(testSignUpRules(ctx, auth!.project.id, body)),
  }),
  signUpRulesStats: route({ handler: ({ auth, ctx }) => ok(signUpRulesStats(ctx, auth!.project.id)) }),
};
