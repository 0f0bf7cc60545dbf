import type { Auth } from "../auth/caller.ts";
import { knownError, StatusError, type KnownErrorException } from "../errors/known-error.ts";
import type { UserRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";
import { requireUser } from "./users/user-lookup.ts";
import { refusal } from "../errors/refusals.ts";

/**
 * Who may do what, for the areas where a client acts on its own behalf and a server on anyone's (protocol.md §2.3,
 * §2.4). Ops call these; routes stay HTTP-only.
 */

export const isClient = (auth: Auth): boolean => auth.type === "client";

/** The caller's user, for operations that need one but take no `me` (USER_AUTHENTICATION_REQUIRED, §2.3). */
export function requireSignedIn(auth: Auth): UserRecord {
  if (!auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  return auth.user;
}

/** Resolves "user id or me" (protocol.md §2.4): `me` without a user is CANNOT_GET_OWN_USER_WITHOUT_USER. */
export function resolveUserId(auth: Auth, userIdOrMe: string): string {
  if (userIdOrMe !== "me") return userIdOrMe;
  if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  return auth.user.id;
}

/**
 * What a client may not do at all, but server and admin may: acting for another user (listing their teams, editing
 * their profile, creating a team in their name). Upstream
 * answers some of these with a plain 403 text; a catalogue error lets SDK callers switch on the code, and
 * INSUFFICIENT_ACCESS_TYPE is exactly "this needs server or admin access" (protocol.md §2.3 per-route check).
 */
export function serverAccessRequired(auth: Auth): KnownErrorException {
  return knownError("INSUFFICIENT_ACCESS_TYPE", {
    actual_access_type: auth.type,
    allowed_access_types: ["server", "admin"],
  });
}

/** For a client, the target must be the caller; `me` resolves to the caller for everyone. */
export function clientSelfOnly(auth: Auth, userIdOrMe: string): string {
  const userId = resolveUserId(auth, userIdOrMe);
  if (isClient(auth) && userId !== auth.user?.id) throw serverAccessRequired(auth);
  return userId;
}

/**
 * The `user_id` of a listing a client may only make about itself (teams, permissions): a client needs a user
 * (CANNOT_GET_OWN_USER_WITHOUT_USER) and must name itself; server and admin may name anyone, or no one (all).
 */
export function listingUserId(auth: Auth, userIdOrMe: string | undefined): string | undefined {
  if (isClient(auth)) {
    if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    if (userIdOrMe === undefined) throw serverAccessRequired(auth);
  }
  return userIdOrMe === undefined ? undefined : clientSelfOnly(auth, userIdOrMe);
}

/**
 * The user a request about "a user's X" names by `user_id` (an id or `me`, protocol.md §2.4). A client may only name
 * itself (upstream's plain 403, in the operation's own wording where it has one: `refused`); a server or admin may name
 * any user of the project (USER_NOT_FOUND otherwise).
 */
export function targetUser(
  auth: Auth,
  ctx: OpContext,
  userIdOrMe: string,
  what: string,
  refused?: () => StatusError,
): UserRecord {
  if (userIdOrMe === "me") {
    if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    return auth.user;
  }
  if (auth.type === "client") {
    if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    if (auth.user.id !== userIdOrMe) throw refused?.() ?? refusal("clientOwnUserOnly", what);
    return auth.user;
  }
  return requireUser(ctx, auth.project.id, userIdOrMe);
}
