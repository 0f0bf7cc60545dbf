import type { RestrictedReason } from "../contract/areas/common.ts";
import type { AppContext } from "../client/app-context.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * The onboarding settings' preview (the published admin app's previewAffectedUsersByOnboardingChange, which its
 * dashboard calls before saving): the users a change would restrict, up to `limit`, and how many in all.
 */

export interface OnboardingChange {
  requireEmailVerification?: boolean;
}

export interface AffectedUser {
  id: string;
  displayName: string | null;
  primaryEmail: string | null;
  restrictedReason: RestrictedReason;
}

export async function previewAffectedUsersByOnboardingChange(
  ctx: AppContext,
  onboarding: OnboardingChange,
  limit?: number,
): Promise<{ affectedUsers: AffectedUser[]; totalAffectedCount: number }> {
  // As the published kit sends it: no limit (the service's default, 10) when none, or 0, is given.
  const query = { limit: limit ? limit : undefined };
  const body = { onboarding: { require_email_verification: onboarding.requireEmailVerification } };
  const json = await asServer.json(ctx.transport, "previewAffectedUsers", { query, body });
  return {
    affectedUsers: json.affected_users.map((u) => ({
      id: u.id,
      displayName: u.display_name,
      primaryEmail: u.primary_email,
      restrictedReason: u.restricted_reason,
    })),
    totalAffectedCount: json.total_affected_count,
  };
}
