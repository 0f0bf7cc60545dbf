import type { ServerUserUpdate } from "@authsim/sdk/contract";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import type { AuthedContext } from "../context.ts";
import { assertClientProfileImage } from "./profile-image.ts";
import { deleteUser, updateUser } from "./users.ts";
import { refusal } from "../../errors/refusals.ts";

/** /users/me (protocol.md §5.2, §6.3): the caller's own user, read, updated and deleted. */

/** The caller's user; a request without one is refused before anything else is looked at. */
export function currentUser(auth: Auth): UserRecord {
  if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  return auth.user;
}

/** PATCH /users/me: a client's profile image must be an image (data URL or base64); server callers may set any. */
export function updateCurrentUser(ctx: AuthedContext, body: ServerUserUpdate): Promise<UserRecord> {
  const user = currentUser(ctx.auth);
  if (ctx.auth.type === "client") assertClientProfileImage(body.profile_image_url);
  return updateUser(ctx, user, body);
}

/** DELETE /users/me: a client may delete its own user only where the project allows it (upstream's plain 400). */
export function deleteCurrentUser(ctx: AuthedContext): void {
  // The project's switch first, then the user, in the real handler's order.
  if (ctx.auth.type === "client" && !ctx.auth.project.config.client_user_deletion_enabled) {
    throw refusal("clientUserDeletionEnabledProject");
  }
  deleteUser(ctx, currentUser(ctx.auth));
}
