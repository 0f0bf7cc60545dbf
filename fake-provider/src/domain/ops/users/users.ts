import type { ClientUserUpdate, ServerUserCreate, ServerUserUpdate, UserListQuery } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { hashPassword } from "../../auth/passwords.ts";
import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import { emailKey } from "../../store/store.ts";
import type { OpContext } from "../context.ts";
import { endAllSessionsOf } from "../sign-in/sessions.ts";
import { channelOfUserByValue, deleteAccountDataOf, syncPrimaryChannel } from "./primary-channel.ts";
import { createAccountsForNewUser, deleteStrongAuthDataOf } from "../oauth/oauth-accounts.ts";
import { forgetUser, teamIdsOf } from "../teams/memberships.ts";
import { grantUserDefaults } from "../teams/permission-grants.ts";
import { createPersonalTeamIfConfigured, renamePersonalTeamOnUpgrade } from "../teams/personal-team.ts";
import { restrictedReasonOf } from "../../views/users.ts";
import { announceUserCreated, announceUserDeleted, announceUserUpdated } from "../webhooks/webhook-events.ts";
import { refusal } from "../../errors/refusals.ts";
import { storedImageUrl } from "../storage/uploaded-images.ts";

import { normalizedEmail } from "./user-lookup.ts";

export { normalizedEmail, requireUser } from "./user-lookup.ts";

/** Users of a project: creation, updates (client and server fields), deletion and listing (protocol.md §5.2). */

export function newUserRecord(ctx: OpContext, projectId: string, fields: Partial<UserRecord> = {}): UserRecord {
  return {
    id: uuid(ctx.random),
    projectId,
    displayName: null,
    primaryEmail: null,
    primaryEmailVerified: false,
    primaryEmailAuthEnabled: false,
    profileImageUrl: null,
    signedUpAtMillis: ctx.now,
    lastActiveAtMillis: ctx.now,
    clientMetadata: null,
    clientReadOnlyMetadata: null,
    serverMetadata: null,
    passwordHash: null,
    totpSecretBase64: null,
    otpAuthEnabled: false,
    passkeyAuthEnabled: false,
    selectedTeamId: null,
    isAnonymous: false,
    restrictedByAdmin: false,
    restrictedByAdminReason: null,
    restrictedByAdminPrivateDetails: null,
    countryCode: null,
    riskScores: { sign_up: { bot: 0, free_trial_abuse: 0 } },
    ...fields,
  };
}

/**
 * An email used for sign-in belongs to one user of a project (USER_EMAIL_ALREADY_EXISTS otherwise). The refusal names
 * the address normalized, as the real service (which stores it so) does, however the caller wrote it.
 */
export function assertAuthEmailFree(ctx: OpContext, projectId: string, email: string, exceptUserId?: string): void {
  const holder = ctx.tables.users.lookup("authEmail", emailKey(projectId, email));
  if (holder && holder.id !== exceptUserId) {
    throw knownError("USER_EMAIL_ALREADY_EXISTS", {
      email: normalizedEmail(email),
      would_work_if_email_was_verified: false,
    });
  }
}

/**
 * Writes a user, checking the auth-email rule against the record as it will be. The primary email is stored
 * normalized (trimmed, lower case), as the real users handler stores it on every create and update, whichever
 * sign-up path or request wrote it.
 */
export function saveUser(ctx: OpContext, written: UserRecord): UserRecord {
  const user =
    written.primaryEmail === null ? written : { ...written, primaryEmail: normalizedEmail(written.primaryEmail) };
  if (user.primaryEmail && user.primaryEmailAuthEnabled)
    assertAuthEmailFree(ctx, user.projectId, user.primaryEmail, user.id);
  const previous = ctx.tables.users.get(user.id);
  const isNew = previous === undefined;
  ctx.tables.users.set(user.id, user);
  // An anonymous user upgraded: its personal team, still named "Personal Team", takes the user's name (domain/ops/teams/personal-team.ts).
  if (previous?.isAnonymous && !user.isAnonymous) renamePersonalTeamOnUpgrade(ctx, user);
  // spec §6: the project's user default permissions are granted when a user is created, whatever the path.
  if (isNew) grantUserDefaults(ctx, user);
  // The primary email is also a primary contact channel (domain/ops/users/primary-channel.ts).
  syncPrimaryChannel(ctx, user);
  // Spec §3 "create team on sign up" (domain/ops/teams/personal-team.ts); it selects the team, so the stored record is returned.
  if (isNew) createPersonalTeamIfConfigured(ctx, user);
  // Every sign-up path creates users through here, as the real service's through its users handler (which announces);
  // an anonymous user upgraded is an update there.
  if (isNew) announceUserCreated(ctx, user);
  else if (previous.isAnonymous && !user.isAnonymous) announceUserUpdated(ctx, user);
  return ctx.tables.users.get(user.id) ?? user;
}

/**
 * The password hash a create or update writes (undefined: leave it; null: remove it). A password is hashed here; an
 * imported `password_hash` must be one the real service accepts (bcrypt in Modular Crypt Format, at most 16 rounds)
 * or the emulator's own PBKDF2 format (what fixture exports hold).
 */
async function passwordHashFor(
  ctx: OpContext,
  body: { password?: string | null | undefined; password_hash?: string | null | undefined },
): Promise<string | null | undefined> {
  const { password, password_hash: imported } = body;
  if (password !== undefined && imported !== undefined) throw refusal("cannotSetBothPasswordPassword");
  if (imported !== undefined && imported !== null) {
    if (!isImportableHash(imported)) throw refusal("invalidPasswordHashMakeSure");
    return imported;
  }
  if (imported === null) return null;
  if (password === undefined || password === null) return password;
  // No length rules here: upstream's users endpoint hashes what a server sends (its rules guard the end-user routes).
  return hashPassword(password, ctx.random, ctx.settings.passwordHashIterations, ctx.settings.crypto);
}

/** bcrypt (`$2a$`, `$2b$`, `$2y$`, two-digit cost, 53 characters of salt and hash) with a cost of at most 16. */
function isImportableHash(hash: string): boolean {
  if (hash.startsWith("pbkdf2-sha256$")) return true;
  const match = /^\$2[ayb]\$(\d{2})\$[./A-Za-z0-9]{53}$/.exec(hash);
  return match !== null && Number(match[1]) <= 16;
}

/**
 * Sign-in methods a create or update turns on must be on in the project (the real plain-text 400s): OTP when the
 * user has none yet, a password (removing one is always allowed). Passkey sign-in is turned on only by registering
 * a passkey, so an update asking for it is refused (one turning it off removes the passkey).
 */
function assertMethodsAllowed(
  ctx: OpContext,
  projectId: string,
  before: UserRecord | null,
  body: { otp_auth_enabled?: boolean | undefined; passkey_auth_enabled?: boolean | undefined },
  passwordHash: string | null | undefined,
): void {
  const config = ctx.tables.projects.get(projectId)?.config;
  if (body.otp_auth_enabled === true && !before?.otpAuthEnabled && config && !config.magic_link_enabled)
    throw refusal("otpAuthNotEnabledInProject");
  if (before && body.passkey_auth_enabled === true) throw refusal("cannotManuallyEnablePasskey");
  if (typeof passwordHash === "string" && config && !config.credential_enabled)
    throw refusal("passwordAuthNotEnabledInProject");
}

/** A user without a primary email can have it neither verified nor used for sign-in (the real plain-text 400s). */
function assertPrimaryEmailFlags(user: UserRecord): void {
  if (user.primaryEmail === null && user.primaryEmailAuthEnabled) throw refusal("primaryEmailAuthEnabledCannot");
  if (user.primaryEmail === null && user.primaryEmailVerified) throw refusal("primaryEmailVerifiedCannotTrue");
}

export async function createUser(ctx: OpContext, projectId: string, body: ServerUserCreate): Promise<UserRecord> {
  const passwordHash = (await passwordHashFor(ctx, body)) ?? null;
  const hasEmail = body.primary_email !== undefined && body.primary_email !== null;
  const user = newUserRecord(ctx, projectId, {
    // An empty display name is stored as none (as upstream).
    displayName: body.display_name || null,
    primaryEmail: body.primary_email ?? null,
    primaryEmailVerified: body.primary_email_verified ?? false,
    // A password implies email auth unless the caller says otherwise (the published SDK sends it explicitly).
    primaryEmailAuthEnabled: body.primary_email_auth_enabled ?? (hasEmail && passwordHash !== null),
    profileImageUrl: storedImageUrl(ctx, body.profile_image_url, "user-profile-images") ?? null,
    clientMetadata: body.client_metadata ?? null,
    clientReadOnlyMetadata: body.client_read_only_metadata ?? null,
    serverMetadata: body.server_metadata ?? null,
    passwordHash,
    totpSecretBase64: body.totp_secret_base64 ?? null,
    otpAuthEnabled: body.otp_auth_enabled ?? false,
    passkeyAuthEnabled: body.passkey_auth_enabled ?? false,
    isAnonymous: body.is_anonymous ?? false,
    restrictedByAdmin: body.restricted_by_admin ?? false,
    restrictedByAdminReason: body.restricted_by_admin_reason ?? null,
    restrictedByAdminPrivateDetails: body.restricted_by_admin_private_details ?? null,
    countryCode: body.country_code ?? null,
    ...(body.risk_scores ? { riskScores: body.risk_scores } : {}),
  });
  assertPrimaryEmailFlags(user);
  saveUser(ctx, user);
  // OAuth provider links made with the user (protocol.md §5.2; domain/ops/oauth/oauth-accounts.ts).
  if (body.oauth_providers) createAccountsForNewUser(ctx, user, body.oauth_providers);
  // After the address and the OAuth links, as the real handler checks them (a refusal rolls the request back).
  assertMethodsAllowed(ctx, projectId, null, body, passwordHash);
  // The user as the real handler reads it back: before its personal team is made (so none is selected yet), with the
  // primary email as stored.
  return { ...user, primaryEmail: user.primaryEmail === null ? null : normalizedEmail(user.primaryEmail) };
}

function defined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** PATCH /users/me (client fields). */
export function clientUpdateFields(user: UserRecord, body: ClientUserUpdate): UserRecord {
  const emailChanged = body.primary_email !== undefined && body.primary_email !== user.primaryEmail;
  return {
    ...user,
    ...defined({
      displayName: body.display_name === "" ? null : body.display_name,
      profileImageUrl: body.profile_image_url,
      clientMetadata: body.client_metadata,
      selectedTeamId: body.selected_team_id,
      totpSecretBase64: body.totp_secret_base64,
      otpAuthEnabled: body.otp_auth_enabled,
      passkeyAuthEnabled: body.passkey_auth_enabled,
      primaryEmail: body.primary_email,
    }),
    // A new address has not been verified yet.
    ...(emailChanged ? { primaryEmailVerified: false } : {}),
  };
}

export function assertSelectableTeam(ctx: OpContext, user: UserRecord): void {
  if (user.selectedTeamId === null) return;
  const team = ctx.tables.teams.get(user.selectedTeamId);
  if (!team || team.projectId !== user.projectId) throw knownError("TEAM_NOT_FOUND", { team_id: user.selectedTeamId });
  if (!ctx.tables.teamMemberships.has(`${team.id}:${user.id}`))
    throw knownError("TEAM_MEMBERSHIP_NOT_FOUND", { team_id: team.id, user_id: user.id });
}

/**
 * Applies an update. A client body is a subset of the server one (the route's schema decides which keys a caller may
 * send), so one function serves both.
 */
export async function updateUser(ctx: OpContext, user: UserRecord, body: ServerUserUpdate): Promise<UserRecord> {
  const passwordHash = await passwordHashFor(ctx, body);
  const next: UserRecord = {
    ...clientUpdateFields(user, {
      ...body,
      profile_image_url: storedImageUrl(ctx, body.profile_image_url, "user-profile-images"),
    }),
    ...defined({
      clientReadOnlyMetadata: body.client_read_only_metadata,
      serverMetadata: body.server_metadata,
      primaryEmailVerified: body.primary_email_verified,
      primaryEmailAuthEnabled: body.primary_email_auth_enabled,
      passwordHash,
      isAnonymous: body.is_anonymous,
      restrictedByAdmin: body.restricted_by_admin,
      restrictedByAdminReason: body.restricted_by_admin_reason,
      restrictedByAdminPrivateDetails: body.restricted_by_admin_private_details,
      countryCode: body.country_code,
      riskScores: body.risk_scores,
    }),
  };
  // The primary email as the real service moves it (domain/ops/users/primary-channel.ts demotes the old channel): removing it turns
  // its verification and sign-in off; an address the user already has as a channel keeps that channel's verification.
  if (body.primary_email === null) Object.assign(next, { primaryEmailVerified: false, primaryEmailAuthEnabled: false });
  else if (
    body.primary_email !== undefined &&
    body.primary_email !== user.primaryEmail &&
    body.primary_email_verified === undefined
  ) {
    const existing = channelOfUserByValue(ctx.tables, user.id, body.primary_email);
    if (existing) next.primaryEmailVerified = existing.isVerified;
  }
  // The real handler's order: the selected team, the primary email's flags and address, then the sign-in methods.
  if (body.selected_team_id !== undefined) assertSelectableTeam(ctx, next);
  assertPrimaryEmailFlags(next);
  // Lifting the restriction clears its reason and details (the body cannot carry them then: contract users.ts).
  if (!next.restrictedByAdmin)
    Object.assign(next, { restrictedByAdminReason: null, restrictedByAdminPrivateDetails: null });
  const saved = saveUser(ctx, next);
  assertMethodsAllowed(ctx, user.projectId, user, body, passwordHash);
  announceUserUpdated(ctx, saved);
  // A new (or removed) password signs the user out everywhere, as upstream revokes every refresh token then.
  if (passwordHash !== undefined) endAllSessionsOf(ctx, user.id);
  return saved;
}

/** Deleting a user ends their sessions and memberships too. */
export function deleteUser(ctx: OpContext, user: UserRecord): void {
  // Announced with the teams the user was in (memberships.ts removes them without announcing each).
  announceUserDeleted(ctx, user, teamIdsOf(ctx, user.id));
  endAllSessionsOf(ctx, user.id);
  deleteAccountDataOf(ctx, user.id);
  deleteStrongAuthDataOf(ctx, user.id);
  // Memberships, with their grants and profiles, and project grants (domain/ops/teams/memberships.ts).
  forgetUser(ctx, user.id);
  ctx.tables.users.delete(user.id);
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The real listing's free-text search: the text as typed, case-insensitively, inside the display name or any of the
 * user's contact channels (not only the primary email); and, when the text with everything but letters, digits,
 * `-`, `_` and `.` taken out is a UUID, the user with exactly that id.
 */
function userSearch(ctx: OpContext, query: string): (user: UserRecord) => boolean {
  const needle = query.toLowerCase();
  const id = query.replace(/[^a-zA-Z0-9\-_.]/g, "");
  const byChannel = new Set<string>();
  for (const channel of ctx.tables.contactChannels.values())
    if (channel.value.toLowerCase().includes(needle)) byChannel.add(channel.userId);
  return (user) =>
    (UUID_V4.test(id) && user.id === id) ||
    (user.displayName ?? "").toLowerCase().includes(needle) ||
    byChannel.has(user.id);
}

export interface UserPage {
  items: UserRecord[];
  nextCursor: string | null;
}

/** GET /users: stable order (sort key, then id); `cursor` is the id of the first user of the page. */
export function listUsers(ctx: OpContext, projectId: string, q: UserListQuery): UserPage {
  const includeAnonymous = q.include_anonymous ?? false;
  const onlyAnonymous = q.only_anonymous ?? false;
  if (onlyAnonymous && !includeAnonymous) throw refusal("onlyAnonymousTrueRequiresInclude");
  const includeRestricted = (q.include_restricted ?? false) || includeAnonymous;
  const matchesQuery = q.query ? userSearch(ctx, q.query) : () => true;
  const inTeam = q.team_id ? (u: UserRecord) => ctx.tables.teamMemberships.has(`${q.team_id}:${u.id}`) : () => true;
  const users = [...ctx.tables.users.values()].filter(
    (u) =>
      u.projectId === projectId &&
      (onlyAnonymous ? u.isAnonymous : includeAnonymous || !u.isAnonymous) &&
      // Restricted: by an administrator, or an unverified address where the project requires verification.
      (includeRestricted || u.isAnonymous || restrictedReasonOf(ctx.tables, u) === null) &&
      inTeam(u) &&
      matchesQuery(u),
  );
  const key =
    q.order_by === "last_active_at" ? (u: UserRecord) => u.lastActiveAtMillis : (u: UserRecord) => u.signedUpAtMillis;
  const direction = q.desc ? -1 : 1;
  // Ties (users signed up in the same millisecond) by id, in the same direction, as the real listing orders them.
  users.sort((a, b) => direction * (key(a) - key(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
  let start = 0;
  if (q.cursor) {
    start = users.findIndex((u) => u.id === q.cursor);
    if (start === -1) start = users.length;
  }
  const limit = q.limit ?? users.length;
  const items = users.slice(start, start + limit);
  return { items, nextCursor: users[start + limit]?.id ?? null };
}
