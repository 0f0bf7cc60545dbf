import { previewAffectedUsers } from "../../domain/ops/emails/onboarding-preview.ts";
import { ok, type RouteTable } from "./define.ts";

/** The onboarding settings' preview, admin only (domain/ops/emails/onboarding-preview.ts). */
export const onboardingRoutes: RouteTable = {
  previewAffectedUsers: {
    handler: ({ auth, ctx, body, query }) => ok(previewAffectedUsers(ctx, auth.project, body, query)),
  },
};
