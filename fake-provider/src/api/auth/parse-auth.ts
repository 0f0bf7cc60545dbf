import {
  DEFAULT_BRANCH_ID,
  INTERNAL_PROJECT_ID,
  PUBLIC_CLIENT_SENTINEL,
  accessTypes,
  type AccessType,
  type AccessTokenClaims,
} from "@authsim/sdk/contract";
import { knownError } from "../../domain/errors/known-error.ts";
import type { ProjectRecord } from "../../domain/store/records.ts";
import type { Tables } from "../../domain/store/store.ts";
import { stackHeader } from "./headers.ts";
import { findKeySet, type KeyKind } from "../../domain/auth/keys.ts";
import { managesProject } from "../../domain/auth/ownership.ts";
import { projectOfAudience, verifyAccessToken } from "../../domain/auth/tokens.ts";
import type { CryptoBackend } from "../../domain/auth/crypto-backend.ts";
import type { Auth } from "../../domain/auth/caller.ts";
import { refusal } from "../../domain/errors/refusals.ts";

export type { Auth };

const keyHeader = {
  client: "publishableClientKey",
  server: "secretServerKey",
  admin: "superSecretAdminKey",
} as const satisfies Record<AccessType, string>;

const keyKind: Record<AccessType, KeyKind> = { client: "publishable", server: "secret", admin: "admin" };

/**
 * Derives the access level of a request, first failure wins, in the order of protocol.md §2.3. Returns null for an
 * unauthenticated request (no access type and no keys).
 */
export async function parseAuth(
  tables: Tables,
  headers: Headers,
  nowMillis: number,
  backend?: CryptoBackend,
): Promise<Auth | null> {
  const accessType = stackHeader(headers, "accessType");
  const adminAccessToken = stackHeader(headers, "adminAccessToken");
  const anyKey =
    stackHeader(headers, "publishableClientKey") ??
    stackHeader(headers, "secretServerKey") ??
    stackHeader(headers, "superSecretAdminKey") ??
    adminAccessToken;
  // 1–2
  if (accessType === null) {
    if (anyKey !== null) throw knownError("PROJECT_KEY_WITHOUT_ACCESS_TYPE");
    return null;
  }
  // 3
  if (!(accessTypes as readonly string[]).includes(accessType))
    throw knownError("INVALID_ACCESS_TYPE", undefined, { accessType });
  const type = accessType as AccessType;
  // 4
  const projectId = stackHeader(headers, "projectId");
  if (projectId === null) throw knownError("ACCESS_TYPE_WITHOUT_PROJECT_ID", { request_type: type });
  // 5: the user's access token is decoded before any key check.
  const accessToken = stackHeader(headers, "accessToken");
  let claims: AccessTokenClaims | null = null;
  if (accessToken !== null) {
    const verified = await verifyAccessToken(tables, accessToken, nowMillis, backend);
    if (!verified.ok && verified.reason === "unparsable") throw knownError("UNPARSABLE_ACCESS_TOKEN");
    if (!verified.ok) throw knownError("ACCESS_TOKEN_EXPIRED", { expired_at_millis: verified.expiredAtMillis });
    claims = verified.claims;
    const tokenProject = projectOfAudience(claims.aud);
    if (tokenProject !== projectId) {
      throw knownError("INVALID_PROJECT_FOR_ACCESS_TOKEN", {
        expected_project_id: projectId,
        actual_project_id: tokenProject,
      });
    }
    const allowAnonymous = stackHeader(headers, "allowAnonymousUser") === "true";
    const allowRestricted = allowAnonymous || stackHeader(headers, "allowRestrictedUser") === "true";
    if (claims.is_anonymous && !allowAnonymous) throw knownError("ANONYMOUS_AUTHENTICATION_NOT_ALLOWED");
    if (claims.is_restricted && !claims.is_anonymous && !allowRestricted) {
      throw knownError("RESTRICTED_USER_NOT_ALLOWED", { restricted_reason: claims.restricted_reason });
    }
  }
  // 6
  const project = tables.projects.get(projectId);
  if (!project) throw knownError("CURRENT_PROJECT_NOT_FOUND", { project_id: projectId });
  // 7
  if (adminAccessToken !== null) {
    await checkAdminAccessToken(tables, adminAccessToken, project, nowMillis, backend);
  } else {
    checkKey(tables, project, type, stackHeader(headers, keyHeader[type]), nowMillis);
  }
  // 8
  const branchId = stackHeader(headers, "branchId") ?? DEFAULT_BRANCH_ID;
  if (branchId !== DEFAULT_BRANCH_ID) throw knownError("BRANCH_DOES_NOT_EXIST", { branch_id: branchId });
  // 9: a valid token of a since-deleted user yields no user.
  const user = claims ? (tables.users.get(claims.sub) ?? null) : null;
  return {
    type,
    project,
    branchId,
    user: user && user.projectId === project.id ? user : null,
    sessionId: claims?.refresh_token_id ?? null,
    claims,
  };
}

function checkKey(
  tables: Tables,
  project: ProjectRecord,
  type: AccessType,
  key: string | null,
  nowMillis: number,
): void {
  if (type === "client") {
    const given = key === PUBLIC_CLIENT_SENTINEL ? null : key;
    if (given === null) {
      if (project.config.require_publishable_client_key)
        throw knownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: project.id });
      return;
    }
    if (!findKeySet(tables, project.id, "publishable", given, nowMillis))
      throw knownError("INVALID_PUBLISHABLE_CLIENT_KEY", { project_id: project.id });
    return;
  }
  if (key === null)
    throw knownError(type === "server" ? "SERVER_AUTHENTICATION_REQUIRED" : "ADMIN_AUTHENTICATION_REQUIRED");
  if (!findKeySet(tables, project.id, keyKind[type], key, nowMillis)) {
    throw knownError(type === "server" ? "INVALID_SECRET_SERVER_KEY" : "INVALID_SUPER_SECRET_ADMIN_KEY", {
      project_id: project.id,
    });
  }
}

/** An admin access token is an access token of an `internal` user who manages the target project (§2.3 step 7). */
async function checkAdminAccessToken(
  tables: Tables,
  token: string,
  project: ProjectRecord,
  nowMillis: number,
  backend?: CryptoBackend,
): Promise<void> {
  const verified = await verifyAccessToken(tables, token, nowMillis, backend);
  if (!verified.ok && verified.reason === "expired")
    throw knownError("ADMIN_ACCESS_TOKEN_EXPIRED", { expired_at_millis: verified.expiredAtMillis });
  if (!verified.ok) throw knownError("UNPARSABLE_ADMIN_ACCESS_TOKEN");
  const { claims } = verified;
  if (projectOfAudience(claims.aud) !== INTERNAL_PROJECT_ID) throw knownError("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  if (claims.is_restricted && !claims.is_anonymous) throw knownError("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  if (claims.is_anonymous && !project.isDevelopmentEnvironment) throw knownError("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
  const user = tables.users.get(claims.sub);
  if (!user || user.projectId !== INTERNAL_PROJECT_ID) {
    throw refusal("adminTokenUserGone");
  }
  if (!managesProject(tables, user.id, project)) throw knownError("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN");
}

/** The per-route check after parseAuth (protocol.md §2.3): which access types an operation admits. */
export function requireAccess(auth: Auth | null, allowed: readonly AccessType[]): Auth {
  if (!auth) throw knownError("ACCESS_TYPE_REQUIRED");
  if (!allowed.includes(auth.type))
    throw knownError("INSUFFICIENT_ACCESS_TYPE", { actual_access_type: auth.type, allowed_access_types: [...allowed] });
  return auth;
}
