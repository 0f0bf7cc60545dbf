import type { PreviewAffectedUsersJson } from "@authsim/sdk/contract";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import { layeredBoolean } from "../config/config-layers.ts";
import type { OpContext } from "../context.ts";

/**
 * POST /internal/onboarding/preview-affected-users?limit=: the users a proposed onboarding change would move from
 * normal to restricted, so the dashboard can warn before an admin saves it. The one requirement today is email
 * verification: turning it on (from off) restricts every non-anonymous user without a verified primary email, for that
 * reason, even one an administrator restricted already (the reasons are separate; views/users.ts). Leaving it as it is
 * or turning it off restricts nobody. Reads only.
 */

const DEFAULT_LIMIT = 10;

/** Newest sign-up first; users who signed up in the same millisecond, the one created later first. */
function newestFirst(users: UserRecord[]): UserRecord[] {
  const created = new Map(users.map((u, i) => [u.id, i]));
  return [...users].sort((a, b) => b.signedUpAtMillis - a.signedUpAtMillis || created.get(b.id)! - created.get(a.id)!);
}

/**
 * `limit` as upstream reads it: the integer the string starts with (the contract refuses one without). A negative
 * limit takes that many from the end of the list (its database's reading of a negative count), still newest first.
 */
function page<T>(list: T[], limit: number): T[] {
  return limit >= 0 ? list.slice(0, limit) : list.slice(Math.max(list.length + limit, 0));
}

export function previewAffectedUsers(
  ctx: OpContext,
  project: ProjectRecord,
  body: { onboarding: { require_email_verification?: boolean | undefined } },
  query: { limit?: string | undefined },
): PreviewAffectedUsersJson {
  const required = layeredBoolean(ctx, project.id, "onboarding.requireEmailVerification", false);
  const willBeRequired = body.onboarding.require_email_verification ?? required;
  if (!willBeRequired || required) return { affected_users: [], total_affected_count: 0 };

  // The users table's insertion order is creation order (store/table.ts keeps a key's place when a record is replaced).
  const unverified = [...ctx.tables.users.values()].filter(
    (u) => u.projectId === project.id && !u.isAnonymous && !(u.primaryEmail !== null && u.primaryEmailVerified),
  );
  const limit = query.limit === undefined ? DEFAULT_LIMIT : Number.parseInt(query.limit, 10);
  return {
    affected_users: page(newestFirst(unverified), limit).map((u) => ({
      id: u.id,
      display_name: u.displayName,
      primary_email: u.primaryEmail,
      restricted_reason: { type: "email_not_verified" as const },
    })),
    total_affected_count: unverified.length,
  };
}
