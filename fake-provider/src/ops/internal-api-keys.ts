import type { InternalApiKeyCreate } from "@authsim/sdk/contract";
import { randomBase32, uuid } from "@authsim/sdk/runtime";
import { knownError, StatusError } from "../http/known-error.ts";
import type { ApiKeySetRecord } from "../store/records.ts";
import type { OpContext } from "./context.ts";

/**
 * Internal (project) API keys, admin only (spec §3 "Internal API key"; protocol.md §5.8): each is a key set of the
 * `apiKeySets` table that request authentication already checks (auth/keys.ts), so a revoked or expired set stops
 * authenticating at once.
 */

export function listInternalApiKeys(ctx: OpContext, projectId: string): ApiKeySetRecord[] {
  return [...ctx.tables.apiKeySets.values()]
    .filter((k) => k.projectId === projectId)
    .sort((a, b) => b.createdAtMillis - a.createdAtMillis || (a.id < b.id ? 1 : -1));
}

const secret = (ctx: OpContext, prefix: string) => `${prefix}_${randomBase32(ctx.random, 224)}`;

export function createInternalApiKey(ctx: OpContext, projectId: string, body: InternalApiKeyCreate): ApiKeySetRecord {
  if (!body.has_publishable_client_key && !body.has_secret_server_key && !body.has_super_secret_admin_key) {
    throw new StatusError(400, "At least one of has_publishable_client_key, has_secret_server_key and has_super_secret_admin_key must be true.");
  }
  const record: ApiKeySetRecord = {
    id: uuid(ctx.random),
    projectId,
    description: body.description,
    createdAtMillis: ctx.now,
    expiresAtMillis: body.expires_at_millis,
    manuallyRevokedAtMillis: null,
    publishableClientKey: body.has_publishable_client_key ? secret(ctx, "pck") : null,
    secretServerKey: body.has_secret_server_key ? secret(ctx, "ssk") : null,
    superSecretAdminKey: body.has_super_secret_admin_key ? secret(ctx, "sak") : null,
  };
  ctx.tables.apiKeySets.set(record.id, record);
  return record;
}

export function requireInternalApiKey(ctx: OpContext, projectId: string, id: string): ApiKeySetRecord {
  const set = ctx.tables.apiKeySets.get(id);
  if (!set || set.projectId !== projectId) throw knownError("API_KEY_NOT_FOUND");
  return set;
}

/** `revoked: true` keeps the first revoke time; a revoked set stays revoked. */
export function updateInternalApiKey(ctx: OpContext, set: ApiKeySetRecord, body: { description?: string | undefined; revoked?: true | undefined }): ApiKeySetRecord {
  const next: ApiKeySetRecord = {
    ...set,
    description: body.description ?? set.description,
    manuallyRevokedAtMillis: body.revoked ? (set.manuallyRevokedAtMillis ?? ctx.now) : set.manuallyRevokedAtMillis,
  };
  ctx.tables.apiKeySets.set(next.id, next);
  return next;
}
