import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import { resolveUserId, targetUser } from "../access.ts";
import type { OpContext } from "../context.ts";
import { refusal } from "../../errors/refusals.ts";

/** Whose OAuth provider links a request may see or change (protocol.md §5.10), with upstream's wording per verb. */

export const OAUTH_PROVIDERS = "OAuth providers";

/** The user of a link route; a client naming another user gets upstream's plain 403 for that verb. */
export function linkOwner(
  auth: Auth,
  ctx: OpContext,
  userIdOrMe: string,
  verb: "read" | "update" | "delete",
): UserRecord {
  if (auth.type === "client" && userIdOrMe !== "me" && auth.user && auth.user.id !== userIdOrMe) {
    throw refusal("clientOwnOAuthProvidersOnly", verb);
  }
  return targetUser(auth, ctx, userIdOrMe, OAUTH_PROVIDERS);
}

/**
 * Whose links a listing shows: a client must be signed in (CANNOT_GET_OWN_USER_WITHOUT_USER) and name itself (`me` or
 * its own id), else upstream's plain 403; server and admin may name anyone, or no one (every link of the project).
 */
export function listingOwner(auth: Auth, userIdOrMe: string | undefined): string | undefined {
  if (auth.type !== "client") return userIdOrMe === "me" ? resolveUserId(auth, userIdOrMe) : userIdOrMe;
  if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  const userId = userIdOrMe === "me" ? auth.user.id : userIdOrMe;
  if (userId !== auth.user.id) throw refusal("clientListOwnOAuthProvidersOnly", OAUTH_PROVIDERS);
  return userId;
}
