import type { Auth } from "../auth/parse-auth.ts";
import { knownError, StatusError } from "../../domain/errors/known-error.ts";
import { schemaError } from "../http/parse.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import { requireUser } from "../../domain/ops/users.ts";
import type { UserRecord } from "../../domain/store/records.ts";

/**
 * The user a request about "a user's X" names by `user_id` (an id or `me`, protocol.md §2.4). A client may only name
 * itself; a server or admin may name any user of the project.
 */
export function targetUser(auth: Auth, ctx: OpContext, userIdOrMe: string, what: string, refusal?: string): UserRecord {
  if (userIdOrMe === "me") {
    if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    return auth.user;
  }
  if (auth.type === "client") {
    if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
    // Upstream answers a plain 403 here (not a known error).
    // `refusal` is the operation's own wording where upstream has one.
    if (auth.user.id !== userIdOrMe) throw new StatusError(403, refusal ?? `Client can only manage ${what} of their own user.`);
    return auth.user;
  }
  return requireUser(ctx, auth.project.id, userIdOrMe);
}

/**
 * For routes whose request schema upstream declares with a user (password set and update, the legacy verification
 * email): without one, its SCHEMA_ERROR names auth.user.
 */
export function userBySchema(auth: Auth, request: Request): UserRecord {
  if (auth.user) return auth.user;
  throw schemaError({ method: request.method, pathname: new URL(request.url).pathname }, ["auth.user must be defined"]);
}

/** Routes that act for the signed-in user only. */
export function signedInUser(auth: Auth): UserRecord {
  if (!auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  return auth.user;
}
