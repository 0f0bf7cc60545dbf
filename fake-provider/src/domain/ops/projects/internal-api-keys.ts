import type { InternalApiKeyCreate } from "@authsim/sdk/contract";
import { randomBase32, uuid, type RandomSource } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { ApiKeySetRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Internal (project) API keys, admin only (spec §3 "Internal API key"; protocol.md §5.8): each is a key set of the
 * `apiKeySets` table that request authentication already checks (domain/auth/keys.ts), so a revoked or expired set stops
 * authenticating at once.
 */

export function listInternalApiKeys(ctx: OpContext, projectId: string): ApiKeySetRecord[] {
  return [...ctx.tables.apiKeySets.values()]
    .filter((k) => k.projectId === projectId)
    .sort((a, b) => b.createdAtMillis - a.createdAtMillis || (a.id < b.id ? 1 : -1));
}

/**
 * A project key the emulator makes: the real service's shape (a prefix and 224 random bits as 45 base32 characters)
 * with an `authsim` word after the prefix, so the dev server can tell its own keys from real ones, which it refuses to
 * load (cli-safety.ts). Random bits are unchanged, so a key is as hard to guess as a real one.
 */
export const emulatorProjectKey = (random: RandomSource, prefix: "pck" | "ssk" | "sak") =>
  `${prefix}_authsim_${randomBase32(random, 224)}`;

export function createInternalApiKey(ctx: OpContext, projectId: string, body: InternalApiKeyCreate): ApiKeySetRecord {
  if (!body.has_publishable_client_key && !body.has_secret_server_key && !body.has_super_secret_admin_key) {
    throw refusal("atLeastOnePublishableClient");
  }
  const record: ApiKeySetRecord = {
    id: uuid(ctx.random),
    projectId,
    description: body.description,
    createdAtMillis: ctx.now,
    expiresAtMillis: body.expires_at_millis,
    manuallyRevokedAtMillis: null,
    publishableClientKey: body.has_publishable_client_key ? emulatorProjectKey(ctx.random, "pck") : null,
    secretServerKey: body.has_secret_server_key ? emulatorProjectKey(ctx.random, "ssk") : null,
    superSecretAdminKey: body.has_super_secret_admin_key ? emulatorProjectKey(ctx.random, "sak") : null,
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
export function updateInternalApiKey(
  ctx: OpContext,
  set: ApiKeySetRecord,
  body: { description?: string | undefined; revoked?: true | undefined },
): ApiKeySetRecord {
  const next: ApiKeySetRecord = {
    ...set,
    description: body.description ?? set.description,
    manuallyRevokedAtMillis: body.revoked ? (set.manuallyRevokedAtMillis ?? ctx.now) : set.manuallyRevokedAtMillis,
  };
  ctx.tables.apiKeySets.set(next.id, next);
  return next;
}
