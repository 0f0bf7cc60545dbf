import { CLI_LOGIN_DEFAULT_EXPIRES_IN_MILLIS } from "@authsim/sdk/contract";
import { randomBase32 } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectRecord, UserRecord, VerificationCodeRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { accessTokenFor, isSessionLive } from "./sessions.ts";
import { createCode } from "./verification-codes.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Command-line login (protocol.md §7.7; spec §4): the CLI opens an attempt (a "cli_login" verification code: its code
 * is the polling code, its data the login code and, once a browser completes it, the refresh token handed over), the
 * person confirms in a signed-in browser, and the CLI polls until it gets the refresh token — once.
 */

interface CliData {
  login_code: string;
  refresh_token: string | null;
  anon_refresh_token: string | null;
}

const dataOf = (record: VerificationCodeRecord): CliData => record.data as unknown as CliData;

function liveSessionUser(ctx: OpContext, project: ProjectRecord, refreshToken: string): UserRecord | null {
  const session = ctx.tables.sessions.lookup("refreshToken", refreshToken);
  if (!session || session.projectId !== project.id || !isSessionLive(session, ctx.now)) return null;
  return ctx.tables.users.get(session.userId) ?? null;
}

export function createCliLogin(
  ctx: OpContext,
  project: ProjectRecord,
  body: { expires_in_millis?: number | undefined; anon_refresh_token?: string | undefined } = {},
) {
  const anon = body.anon_refresh_token;
  if (anon !== undefined) {
    const user = liveSessionUser(ctx, project, anon);
    // Upstream answers these with plain 400s.
    if (!user) throw refusal("invalidAnonRefreshToken");
    if (!user.isAnonymous) throw refusal("providedRefreshTokenDoesBelong");
  }
  const data: CliData = {
    login_code: randomBase32(ctx.random, 224),
    refresh_token: null,
    anon_refresh_token: anon ?? null,
  };
  const record = createCode(ctx, {
    projectId: project.id,
    purpose: "cli_login",
    data: { ...data },
    expiresInMillis: body.expires_in_millis ?? CLI_LOGIN_DEFAULT_EXPIRES_IN_MILLIS,
  });
  return {
    polling_code: record.code,
    login_code: data.login_code,
    expires_at: new Date(record.expiresAtMillis).toISOString(),
  };
}

/** POST /auth/cli/poll: waiting / expired / used (200), or success with the refresh token (201), which uses it up. */
export function pollCliLogin(
  ctx: OpContext,
  project: ProjectRecord,
  pollingCode: string,
): { status: 200 | 201; body: { status: "expired" | "used" | "waiting" | "success"; refresh_token?: string } } {
  const record = ctx.tables.verificationCodes.lookup("code", `${project.id}\u0000${pollingCode}`);
  if (!record || record.purpose !== "cli_login") throw knownError("INVALID_POLLING_CODE");
  if (record.expiresAtMillis <= ctx.now) return { status: 200, body: { status: "expired" } };
  if (record.usedAtMillis !== null) return { status: 200, body: { status: "used" } };
  const { refresh_token } = dataOf(record);
  if (refresh_token === null) return { status: 200, body: { status: "waiting" } };
  ctx.tables.verificationCodes.set(record.id, { ...record, usedAtMillis: ctx.now });
  return { status: 201, body: { status: "success", refresh_token } };
}

function attemptByLoginCode(ctx: OpContext, project: ProjectRecord, loginCode: string): VerificationCodeRecord {
  const record = [...ctx.tables.verificationCodes.values()].find(
    (c) => c.projectId === project.id && c.purpose === "cli_login" && dataOf(c).login_code === loginCode,
  );
  // Upstream tells the browser nothing more than "not pending": an unknown, expired, completed or polled attempt all
  // get the same plain 400 (the CLI's poll is where expired and used are told apart).
  const pending =
    record && record.expiresAtMillis > ctx.now && record.usedAtMillis === null && dataOf(record).refresh_token === null;
  if (!record || !pending) throw refusal("invalidCliLoginCode");
  return record;
}

/**
 * POST /auth/cli/complete {login_code, mode?, refresh_token?}: `check` says whether the CLI brought an anonymous
 * session, `claim-anon-session` hands that session to the browser, `complete` (default) gives the CLI the browser's
 * refresh token.
 */
export async function completeCliLogin(
  ctx: OpContext,
  project: ProjectRecord,
  body: { login_code: string; mode?: string | undefined; refresh_token?: string | undefined },
) {
  const record = attemptByLoginCode(ctx, project, body.login_code);
  const data = dataOf(record);
  const anonUser = data.anon_refresh_token ? liveSessionUser(ctx, project, data.anon_refresh_token) : null;
  const mode = body.mode ?? "complete";
  if (mode === "check")
    return { cli_session_state: anonUser?.isAnonymous ? ("anonymous" as const) : ("none" as const) };
  if (mode === "claim-anon-session") {
    if (!anonUser?.isAnonymous || !data.anon_refresh_token) throw refusal("noAnonymousSessionAssociatedCode");
    const session = ctx.tables.sessions.lookup("refreshToken", data.anon_refresh_token)!;
    ctx.tables.verificationCodes.set(record.id, { ...record, data: { ...data, anon_refresh_token: null } });
    return { access_token: await accessTokenFor(ctx, anonUser, session.id), refresh_token: data.anon_refresh_token };
  }
  if (!body.refresh_token) throw refusal("refreshTokenRequiredWhenMode");
  const user = liveSessionUser(ctx, project, body.refresh_token);
  if (!user) throw refusal("invalidRefreshToken");
  if (user.isAnonymous || user.restrictedByAdmin) {
    throw knownError("RESTRICTED_USER_NOT_ALLOWED", {
      restricted_reason: { type: user.isAnonymous ? "anonymous" : "restricted_by_administrator" },
    });
  }
  ctx.tables.verificationCodes.set(record.id, {
    ...record,
    data: { ...data, refresh_token: body.refresh_token, anon_refresh_token: null },
  });
  return { success: true as const };
}
