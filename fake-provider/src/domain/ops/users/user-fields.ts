import type { UserRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

/**
 * The users table's second transition: fields that no rule of saveUser (ops/users/users.ts) depends on or derives from —
 * activity, the selected team, the passkey switch — and the primary-email fields, which are mirrored from the primary
 * contact channel (ops/users/primary-channel.ts keeps the two in step from the channel's side). saveUser checks the
 * auth-email rule and brings the personal team, default permissions and primary channel along; none of that follows
 * from these fields. It sits below users.ts, so sessions, teams and passkeys write through it without importing
 * users.ts, which imports them.
 */
export type UserFields = Partial<
  Pick<
    UserRecord,
    | "lastActiveAtMillis"
    | "selectedTeamId"
    | "passkeyAuthEnabled"
    | "primaryEmail"
    | "primaryEmailVerified"
    | "primaryEmailAuthEnabled"
  >
>;

/** The user with these fields changed, written and returned. */
export function setUserFields(ctx: OpContext, user: UserRecord, fields: UserFields): UserRecord {
  const next = { ...user, ...fields };
  ctx.tables.users.set(user.id, next);
  return next;
}
