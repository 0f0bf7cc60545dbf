import type { ServerContactChannelCreate, ServerContactChannelUpdate } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { linkWithCode } from "../../email/templates.ts";
import { knownError } from "../../errors/known-error.ts";
import type { ContactChannelRecord } from "../../store/account-records.ts";
import type { ProjectRecord, UserRecord } from "../../store/records.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import type { OpContext } from "../context.ts";
import { sendEmail } from "../emails/outbox.ts";
import { authHolderOtherThan, channelOfUserByValue, mirrorPrimaryToUser, primaryChannelOf } from "./primary-channel.ts";
import { createCode, redeemCode } from "../sign-in/verification-codes.ts";
import { refusal } from "../../errors/refusals.ts";
import { normalizedEmail } from "./user-lookup.ts";

/**
 * A user's contact channels and email verification (spec §3, §4 "Email verification"; protocol.md §5.6, §7.3).
 * Writes to the primary channel carry over to the user's primary-email fields (primary-channel.ts).
 */

/** The user's channels, oldest first (as upstream lists them). */
export function listChannels(ctx: OpContext, userId: string): ContactChannelRecord[] {
  return [...ctx.tables.contactChannels.values()]
    .filter((c) => c.userId === userId)
    .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : 1));
}

/**
 * The user's channel, or upstream's plain answer for a missing one, which differs by operation: a read is a 404
 * "Contact channel not found.", an update or delete a 400 without the period, a verification email a 404 without it.
 */
export function requireChannel(
  ctx: OpContext,
  user: UserRecord,
  channelId: string,
  use: "read" | "write" | "verify" = "read",
): ContactChannelRecord {
  const channel = ctx.tables.contactChannels.get(channelId);
  if (!channel || channel.userId !== user.id) {
    if (use === "write") throw refusal("contactChannelNotFoundToWrite");
    throw refusal(use === "verify" ? "contactChannelNotFoundToVerify" : "contactChannelNotFound");
  }
  return channel;
}

function alreadyUsedForAuth(value: string) {
  return knownError("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", {
    type: "email",
    contact_channel_value: value,
    would_work_if_email_was_verified: false,
  });
}

/** A user has each address once (upstream answers a plain 400). */
function assertNewToUser(ctx: OpContext, userId: string, value: string, exceptId?: string): void {
  const existing = channelOfUserByValue(ctx.tables, userId, value);
  if (existing && existing.id !== exceptId) throw refusal("contactChannelAlreadyExists");
}

/** Making one channel primary demotes the previous one first (the `primary` index holds one per user). */
function demotePrimary(ctx: OpContext, userId: string, exceptId: string): void {
  const primary = primaryChannelOf(ctx.tables, userId);
  if (primary && primary.id !== exceptId) ctx.tables.contactChannels.set(primary.id, { ...primary, isPrimary: false });
}

export function createChannel(
  ctx: OpContext,
  user: UserRecord,
  typed: Omit<ServerContactChannelCreate, "user_id">,
): ContactChannelRecord {
  // Addresses are stored normalized, as the real handler stores them.
  const body = { ...typed, value: normalizedEmail(typed.value) };
  assertNewToUser(ctx, user.id, body.value);
  if (body.used_for_auth && authHolderOtherThan(ctx.tables, user.projectId, body.value, user.id))
    throw alreadyUsedForAuth(body.value);
  const channel: ContactChannelRecord = {
    id: uuid(ctx.random),
    projectId: user.projectId,
    userId: user.id,
    type: body.type,
    value: body.value,
    isVerified: body.is_verified ?? false,
    isPrimary: body.is_primary ?? false,
    usedForAuth: body.used_for_auth,
    createdAtMillis: ctx.now,
  };
  if (channel.isPrimary) demotePrimary(ctx, user.id, channel.id);
  ctx.tables.contactChannels.set(channel.id, channel);
  mirrorPrimaryToUser(ctx, user.id);
  return channel;
}

export function updateChannel(
  ctx: OpContext,
  user: UserRecord,
  channel: ContactChannelRecord,
  body: ServerContactChannelUpdate,
): ContactChannelRecord {
  const value = body.value === undefined ? channel.value : normalizedEmail(body.value);
  if (value !== channel.value) assertNewToUser(ctx, user.id, value, channel.id);
  const next: ContactChannelRecord = {
    ...channel,
    value,
    // An address sent (even the same one) is unverified unless a server says otherwise, as the real handler sets it.
    isVerified: body.is_verified ?? (body.value !== undefined ? false : channel.isVerified),
    usedForAuth: body.used_for_auth ?? channel.usedForAuth,
    isPrimary: body.is_primary ?? channel.isPrimary,
  };
  if (next.usedForAuth && authHolderOtherThan(ctx.tables, user.projectId, next.value, user.id))
    throw alreadyUsedForAuth(next.value);
  if (next.isPrimary) demotePrimary(ctx, user.id, next.id);
  ctx.tables.contactChannels.set(next.id, next);
  mirrorPrimaryToUser(ctx, user.id);
  return next;
}

export function deleteChannel(ctx: OpContext, user: UserRecord, channel: ContactChannelRecord): void {
  ctx.tables.contactChannels.delete(channel.id);
  mirrorPrimaryToUser(ctx, user.id);
}

/** Emails a verification link for a channel: `callback_url?code=<C>` (protocol.md §7.3). */
export function sendChannelVerification(
  ctx: OpContext,
  project: ProjectRecord,
  user: UserRecord,
  channel: ContactChannelRecord,
  callbackUrl: string,
): void {
  if (channel.isVerified) throw knownError("EMAIL_ALREADY_VERIFIED");
  assertTrustedCallback(project, callbackUrl);
  const code = createCode(ctx, {
    projectId: project.id,
    purpose: "email_verification",
    data: { user_id: user.id, email: channel.value },
  });
  sendEmail(ctx, {
    projectId: project.id,
    to: channel.value,
    kind: "email_verification",
    userId: user.id,
    code: code.code,
    link: linkWithCode(callbackUrl, code.code),
  });
}

/** The legacy route: the signed-in user's primary email, named in the body (EMAIL_IS_NOT_PRIMARY_EMAIL otherwise). */
export function sendPrimaryVerification(
  ctx: OpContext,
  project: ProjectRecord,
  user: UserRecord,
  email: string,
  callbackUrl: string,
): void {
  const primary = primaryChannelOf(ctx.tables, user.id);
  if (!primary || primary.value !== email)
    throw knownError("EMAIL_IS_NOT_PRIMARY_EMAIL", { email, primary_email: user.primaryEmail });
  sendChannelVerification(ctx, project, user, primary, callbackUrl);
}

/** POST /contact-channels/verify (and check-code without consuming): the channel the code was sent to is verified. */
export function verifyChannel(ctx: OpContext, projectId: string, code: string, options: { consume: boolean }): void {
  const record = redeemCode(ctx, projectId, "email_verification", code, options);
  if (!options.consume) return;
  const userId = String(record.data.user_id);
  const channel = channelOfUserByValue(ctx.tables, userId, String(record.data.email));
  // The channel may have been deleted (or changed) after the email was sent.
  if (!channel) throw refusal("contactChannelFoundWasContact");
  ctx.tables.contactChannels.set(channel.id, { ...channel, isVerified: true });
  mirrorPrimaryToUser(ctx, userId);
}

/** Sign-up with `verification_callback_url` emails a verification link for the new primary email (protocol.md §6.2). */
export function sendSignUpVerification(
  ctx: OpContext,
  project: ProjectRecord,
  user: UserRecord,
  callbackUrl: string,
): void {
  const primary = primaryChannelOf(ctx.tables, user.id);
  if (primary && !primary.isVerified) sendChannelVerification(ctx, project, user, primary, callbackUrl);
}
