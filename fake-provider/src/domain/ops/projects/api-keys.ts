import { apiKeyInvalidReason, type ApiKeyCreate, type ApiKeyType, type ApiKeyUpdate } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import { newApiKeySecret } from "../../auth/api-key-format.ts";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { ProjectApiKeyRecord } from "../../store/account-records.ts";
import type { UserRecord } from "../../store/records.ts";
import { targetUser } from "../access.ts";
import type { OpContext } from "../context.ts";
import { refusal } from "../../errors/refusals.ts";
import { hasTeamPermission } from "../teams/permission-grants.ts";

/**
 * User and team API keys (spec §3 "API key", §4 validity, §6; protocol.md §5.8). Teams are read, never written here:
 * the teams area owns them.
 */
export type ApiKeyOwner = { type: "user"; userId: string } | { type: "team"; teamId: string };

/** spec §6: clients manage API keys only when the project allows that kind (upstream answers a plain 400). */
export function assertClientMayUseApiKeys(auth: Auth, type: ApiKeyType): void {
  if (auth.type !== "client") return;
  const allowed = type === "user" ? auth.project.config.allow_user_api_keys : auth.project.config.allow_team_api_keys;
  if (!allowed) throw refusal("apiKeysNotEnabled", type === "user" ? "User" : "Team");
}

export function userOwner(user: UserRecord): ApiKeyOwner {
  return { type: "user", userId: user.id };
}

/** The owner of the user keys a request names (an id or `me`); a client naming another user gets upstream's own 403. */
export function userKeyOwner(auth: Auth, ctx: OpContext, userIdOrMe: string): ApiKeyOwner {
  if (auth.type === "client" && auth.user && userIdOrMe !== "me" && userIdOrMe !== auth.user.id)
    throw refusal("clientOwnApiKeysOnly");
  return userOwner(targetUser(auth, ctx, userIdOrMe, "API keys"));
}

/**
 * A client manages a team's keys only holding $manage_api_keys in it (recursively); otherwise the keys are "not
 * found", so a client learns nothing about teams (as upstream answers, before looking at the team).
 */
function assertClientManagesTeamKeys(ctx: OpContext, auth: Auth, teamId: string): void {
  if (auth.type !== "client") return;
  const me = auth.user;
  if (!me) throw knownError("USER_AUTHENTICATION_REQUIRED");
  if (!hasTeamPermission(ctx, auth.project.id, teamId, me.id, "$manage_api_keys"))
    throw knownError("API_KEY_NOT_FOUND");
}

/** A team owner: a client's right to manage its keys, then the team (TEAM_NOT_FOUND). */
export function teamOwner(ctx: OpContext, auth: Auth, teamId: string): ApiKeyOwner {
  assertClientManagesTeamKeys(ctx, auth, teamId);
  const team = ctx.tables.teams.get(teamId);
  if (!team || team.projectId !== auth.project.id) throw knownError("TEAM_NOT_FOUND", { team_id: teamId });
  return { type: "team", teamId };
}

export function createApiKey(
  ctx: OpContext,
  projectId: string,
  owner: ApiKeyOwner,
  body: ApiKeyCreate,
): ProjectApiKeyRecord {
  const isPublic = body.is_public ?? false;
  const id = uuid(ctx.random);
  const record: ProjectApiKeyRecord = {
    id,
    projectId,
    type: owner.type,
    userId: owner.type === "user" ? owner.userId : null,
    teamId: owner.type === "team" ? owner.teamId : null,
    description: body.description,
    // The real service's format (domain/auth/api-key-format.ts): its parser and secret scanners recognise it.
    value: newApiKeySecret(ctx.random, { id, type: owner.type, isPublic }),
    isPublic,
    createdAtMillis: ctx.now,
    expiresAtMillis: body.expires_at_millis,
    manuallyRevokedAtMillis: null,
  };
  ctx.tables.projectApiKeys.set(record.id, record);
  return record;
}

const ownedBy = (key: ProjectApiKeyRecord, owner: ApiKeyOwner) =>
  owner.type === "user" ? key.userId === owner.userId : key.teamId === owner.teamId;

/** Newest first, as upstream lists them. */
export function listApiKeys(ctx: OpContext, projectId: string, owner: ApiKeyOwner): ProjectApiKeyRecord[] {
  return [...ctx.tables.projectApiKeys.values()]
    .filter((k) => k.projectId === projectId && k.type === owner.type && ownedBy(k, owner))
    .sort((a, b) => b.createdAtMillis - a.createdAtMillis || (a.id < b.id ? 1 : -1));
}

/** A key of this endpoint's type that the caller may see; API_KEY_NOT_FOUND otherwise. */
export function requireApiKey(ctx: OpContext, auth: Auth, type: ApiKeyType, id: string): ProjectApiKeyRecord {
  const key = ctx.tables.projectApiKeys.get(id);
  if (!key || key.projectId !== auth.project.id || key.type !== type) throw knownError("API_KEY_NOT_FOUND");
  if (auth.type === "client") {
    const me = auth.user;
    if (!me) throw knownError("USER_AUTHENTICATION_REQUIRED");
    if (key.userId !== null && key.userId !== me.id) throw refusal("clientOwnApiKeysOnly");
    if (key.teamId !== null) assertClientManagesTeamKeys(ctx, auth, key.teamId);
  }
  return key;
}

/**
 * PATCH: description, expiry, and `revoked: true`, which keeps the first revoke time. A public key cannot be revoked
 * (spec §4, PUBLIC_API_KEY_CANNOT_BE_REVOKED).
 */
export function updateApiKey(ctx: OpContext, key: ProjectApiKeyRecord, body: ApiKeyUpdate): ProjectApiKeyRecord {
  if (body.revoked && key.isPublic) throw knownError("PUBLIC_API_KEY_CANNOT_BE_REVOKED");
  const next: ProjectApiKeyRecord = {
    ...key,
    description: body.description ?? key.description,
    expiresAtMillis: body.expires_at_millis !== undefined ? body.expires_at_millis : key.expiresAtMillis,
    manuallyRevokedAtMillis: body.revoked ? (key.manuallyRevokedAtMillis ?? ctx.now) : key.manuallyRevokedAtMillis,
  };
  ctx.tables.projectApiKeys.set(next.id, next);
  return next;
}

/**
 * POST /{type}-api-keys/check: the key behind a secret, or why it is not valid. Unknown → API_KEY_NOT_FOUND; the other
 * type → WRONG_API_KEY_TYPE; then the provider's reading of spec §4: expired before manually revoked.
 */
export function checkApiKey(ctx: OpContext, projectId: string, type: ApiKeyType, secret: string): ProjectApiKeyRecord {
  const key = ctx.tables.projectApiKeys.lookup("value", `${projectId}\u0000${secret}`);
  if (!key) throw knownError("API_KEY_NOT_FOUND");
  if (key.type !== type) throw knownError("WRONG_API_KEY_TYPE", { expected_type: type, actual_type: key.type });
  const reason = apiKeyInvalidReason(key, ctx.now, "expired-first");
  if (reason === "expired") throw knownError("API_KEY_EXPIRED");
  if (reason === "manually-revoked") throw knownError("API_KEY_REVOKED");
  return key;
}
