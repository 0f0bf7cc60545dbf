import { constants, type RequestBody, type SignInResponse } from "@authsim/sdk/contract";
import { randomBase32, uuid } from "@authsim/sdk/runtime";
import { unsignedAccessToken, type UnsignedAccessToken, type WithUnsignedToken } from "../../auth/tokens.ts";
import { knownError } from "../../errors/known-error.ts";
import type { SessionRecord, UserRecord } from "../../store/records.ts";
import type { AuthedContext, OpContext } from "../context.ts";
import { recordTokenRefresh } from "../analytics/analytics-events.ts";
import { setUserFields } from "../users/user-fields.ts";

/** Sessions are refresh-token rows (protocol.md §4.3): no rotation, valid until expiry, sign-out or user deletion. */

export function isSessionLive(session: SessionRecord, now: number): boolean {
  return session.expiresAtMillis > now;
}

/**
 * Every access token minted from a session: one `$token-refresh` analytics event each (domain/ops/analytics/analytics-events.ts).
 * Signed after the transaction commits (UnsignedAccessToken).
 */
export async function accessTokenFor(
  ctx: OpContext,
  user: UserRecord,
  sessionId: string,
): Promise<UnsignedAccessToken> {
  recordTokenRefresh(ctx, user, sessionId);
  return unsignedAccessToken(ctx.tables, ctx.random, {
    apiBaseUrl: ctx.settings.apiBaseUrl,
    projectId: user.projectId,
    user,
    sessionId,
    nowMillis: ctx.now,
    lifetimeSeconds: ctx.settings.accessTokenLifetimeSeconds,
  });
}

export interface NewSession {
  session: SessionRecord;
  accessToken: UnsignedAccessToken;
}

export async function openSession(
  ctx: OpContext,
  user: UserRecord,
  options: { expiresInMillis?: number; isImpersonation?: boolean } = {},
): Promise<NewSession> {
  const session: SessionRecord = {
    id: uuid(ctx.random),
    projectId: user.projectId,
    userId: user.id,
    refreshToken: randomBase32(ctx.random, constants.randomIdBits),
    createdAtMillis: ctx.now,
    expiresAtMillis: ctx.now + (options.expiresInMillis ?? constants.serverSessionDefaultExpiresInMillis),
    lastUsedAtMillis: ctx.now,
    isImpersonation: options.isImpersonation ?? constants.serverSessionDefaultIsImpersonation,
    // The session list reports where the end user was (protocol.md §5.7).
    ...(ctx.endUser ? { endUserIpInfo: ctx.endUser } : {}),
  };
  ctx.tables.sessions.set(session.id, session);
  return { session, accessToken: await accessTokenFor(ctx, user, session.id) };
}

export async function signInResponseFor(ctx: OpContext, user: UserRecord): Promise<WithUnsignedToken<SignInResponse>> {
  const { session, accessToken } = await openSession(ctx, user);
  return { access_token: accessToken, refresh_token: session.refreshToken, user_id: user.id };
}

/** POST /auth/sessions (server): a session for a user of the caller's project, named by id. */
export async function openSessionFor(
  ctx: AuthedContext,
  body: RequestBody<"createSession">,
): Promise<{ refresh_token: string; access_token: UnsignedAccessToken }> {
  const user = ctx.tables.users.get(body.user_id);
  // Another project's user is as unknown as no user at all.
  if (!user || user.projectId !== ctx.auth.project.id)
    throw knownError("USER_ID_DOES_NOT_EXIST", { user_id: body.user_id });
  const { session, accessToken } = await openSession(ctx, user, {
    ...(body.expires_in_millis !== undefined ? { expiresInMillis: body.expires_in_millis } : {}),
    ...(body.is_impersonation !== undefined ? { isImpersonation: body.is_impersonation } : {}),
  });
  return { refresh_token: session.refreshToken, access_token: accessToken };
}

/**
 * POST /auth/sessions/current/refresh: the refresh grant for the refresh token the request carried in its header
 * (none is as unknown as a wrong one).
 */
export async function refreshCurrentSession(
  ctx: AuthedContext,
  refreshToken: string | null,
): Promise<{ access_token: UnsignedAccessToken }> {
  if (!refreshToken) throw knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  const { accessToken } = await refreshAccessToken(ctx, ctx.auth.project.id, refreshToken);
  return { access_token: accessToken };
}

/**
 * The refresh grant (protocol.md §4.4): a live session of this project whose user still exists yields a new access
 * token; the refresh token itself is echoed, not rotated.
 */
export async function refreshAccessToken(
  ctx: OpContext,
  projectId: string,
  refreshToken: string,
): Promise<{ accessToken: UnsignedAccessToken; refreshToken: string }> {
  const session = ctx.tables.sessions.lookup("refreshToken", refreshToken);
  if (!session || session.projectId !== projectId || !isSessionLive(session, ctx.now))
    throw knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  const user = ctx.tables.users.get(session.userId);
  if (!user) throw knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  ctx.tables.sessions.set(session.id, { ...session, lastUsedAtMillis: ctx.now });
  setUserFields(ctx, user, { lastActiveAtMillis: ctx.now });
  return { accessToken: await accessTokenFor(ctx, user, session.id), refreshToken: session.refreshToken };
}

/**
 * DELETE /auth/sessions/current for the caller. A request without an access token (so without a session) gets
 * ACCESS_TOKEN_EXPIRED expiring now, as the real handler answers it (its "old access token" branch). The session's
 * user need not exist any more (upstream deletes by the token's refresh_token_id alone), so a deleted user's token
 * gets REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED, which sign-out ignores.
 */
export function endCurrentSession(ctx: AuthedContext): void {
  if (!ctx.auth.sessionId) throw knownError("ACCESS_TOKEN_EXPIRED", { expired_at_millis: ctx.now });
  endSession(ctx, ctx.auth.sessionId);
}

/** Ends the session the access token was minted for. */
export function endSession(ctx: OpContext, sessionId: string | null): void {
  const session = sessionId ? ctx.tables.sessions.get(sessionId) : undefined;
  if (!session) throw knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  ctx.tables.sessions.delete(session.id);
}

export function endAllSessionsOf(ctx: OpContext, userId: string): void {
  for (const session of [...ctx.tables.sessions.values()])
    if (session.userId === userId) ctx.tables.sessions.delete(session.id);
}
