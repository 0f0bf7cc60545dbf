import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

/**
 * A user of the project, or USER_NOT_FOUND. Its own module, below users.ts, because the modules users.ts calls when it
 * creates or deletes a user (oauth-accounts.ts) need it too; users.ts re-exports it.
 */
export function requireUser(ctx: OpContext, projectId: string, userId: string): UserRecord {
  const user = ctx.tables.users.get(userId);
  if (!user || user.projectId !== projectId) throw knownError("USER_NOT_FOUND");
  return user;
}

/** An address as the real service compares and stores it: trimmed, in lower case (users and contact channels alike). */
export function normalizedEmail(email: string): string {
  return email.trim().toLowerCase();
}
