import { uuid } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { ContactChannelRecord } from "../../store/account-records.ts";
import type { UserRecord } from "../../store/records.ts";
import type { Tables } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { setUserFields } from "./user-fields.ts";

/**
 * The user's primary email is a primary contact channel (spec §3; protocol.md §5.6): `UserRecord.primaryEmail`,
 * `primaryEmailVerified` and `primaryEmailAuthEnabled` always equal the primary channel's value, `isVerified` and
 * `usedForAuth`. Writes to a user bring the channel along (syncPrimaryChannel, called by saveUser); writes to channels
 * bring the user along (mirrorPrimaryToUser). Neither calls the other, so there is no loop.
 */

const userValueKey = (c: Pick<ContactChannelRecord, "userId" | "type" | "value">) =>
  `${c.userId}\u0000${c.type}\u0000${c.value.toLowerCase()}`;
const authValueKey = (projectId: string, value: string) => `${projectId}\u0000email\u0000${value.toLowerCase()}`;

export function primaryChannelOf(tables: Tables, userId: string): ContactChannelRecord | undefined {
  return tables.contactChannels.lookup("primary", userId);
}

export function channelOfUserByValue(tables: Tables, userId: string, value: string): ContactChannelRecord | undefined {
  return tables.contactChannels.lookup("userValue", userValueKey({ userId, type: "email", value }));
}

/** The channel that signs a user in with this address, whoever holds it (protocol.md §7.2). */
export function authChannelFor(tables: Tables, projectId: string, value: string): ContactChannelRecord | undefined {
  return tables.contactChannels.lookup("authValue", authValueKey(projectId, value));
}

/** Whether another user already signs in with `value` (used-for-auth addresses are unique within a project). */
export function authHolderOtherThan(
  tables: Tables,
  projectId: string,
  value: string,
  userId: string,
): ContactChannelRecord | undefined {
  const holder = authChannelFor(tables, projectId, value);
  return holder && holder.userId !== userId ? holder : undefined;
}

/** Called whenever a user record is written: the primary channel follows the user's primary-email fields. */
export function syncPrimaryChannel(ctx: OpContext, user: UserRecord): void {
  const { contactChannels } = ctx.tables;
  const primary = primaryChannelOf(ctx.tables, user.id);
  // A primary address that is removed or replaced stays as one of the user's channels, no longer primary (as the
  // real service demotes it).
  if (user.primaryEmail === null) {
    if (primary) contactChannels.set(primary.id, { ...primary, isPrimary: false });
    return;
  }
  const wanted = {
    value: user.primaryEmail,
    isVerified: user.primaryEmailVerified,
    usedForAuth: user.primaryEmailAuthEnabled,
  };
  if (
    primary &&
    primary.value === wanted.value &&
    primary.isVerified === wanted.isVerified &&
    primary.usedForAuth === wanted.usedForAuth
  )
    return;
  if (wanted.usedForAuth && authHolderOtherThan(ctx.tables, user.projectId, wanted.value, user.id)) {
    throw knownError("USER_EMAIL_ALREADY_EXISTS", { email: wanted.value, would_work_if_email_was_verified: false });
  }
  // The address may already be one of the user's other channels: that channel becomes the primary one.
  const sameValue = channelOfUserByValue(ctx.tables, user.id, wanted.value);
  if (primary && primary.value.toLowerCase() !== wanted.value.toLowerCase())
    contactChannels.set(primary.id, { ...primary, isPrimary: false });
  const base =
    sameValue ?? (primary && primary.value.toLowerCase() === wanted.value.toLowerCase() ? primary : undefined);
  const record: ContactChannelRecord = base
    ? { ...base, ...wanted, isPrimary: true }
    : {
        id: uuid(ctx.random),
        projectId: user.projectId,
        userId: user.id,
        type: "email",
        ...wanted,
        isPrimary: true,
        createdAtMillis: ctx.now,
      };
  contactChannels.set(record.id, record);
}

/** Called after channel writes: the user's primary-email fields follow the primary channel (or its absence). */
export function mirrorPrimaryToUser(ctx: OpContext, userId: string): void {
  const user = ctx.tables.users.get(userId);
  if (!user) return;
  const primary = primaryChannelOf(ctx.tables, userId);
  const mirrored = {
    primaryEmail: primary?.value ?? null,
    primaryEmailVerified: primary?.isVerified ?? false,
    primaryEmailAuthEnabled: primary?.usedForAuth ?? false,
  };
  if (
    mirrored.primaryEmail !== user.primaryEmail ||
    mirrored.primaryEmailVerified !== user.primaryEmailVerified ||
    mirrored.primaryEmailAuthEnabled !== user.primaryEmailAuthEnabled
  ) {
    setUserFields(ctx, user, mirrored);
  }
}

/** Everything of the account surfaces that dies with a user (called by deleteUser). */
export function deleteAccountDataOf(ctx: OpContext, userId: string): void {
  for (const channel of [...ctx.tables.contactChannels.values()])
    if (channel.userId === userId) ctx.tables.contactChannels.delete(channel.id);
  for (const key of [...ctx.tables.projectApiKeys.values()])
    if (key.userId === userId) ctx.tables.projectApiKeys.delete(key.id);
  for (const [id, pref] of ctx.tables.notificationPreferences.entries())
    if (pref.userId === userId) ctx.tables.notificationPreferences.delete(id);
}
