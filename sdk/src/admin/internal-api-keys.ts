import { apiKeyInvalidReason, type ApiKeyInvalidReason } from "../contract/areas/api-keys.ts";
import { type InternalApiKeyFirstViewJson, type InternalApiKeyJson } from "../contract/areas/internal-api-keys.ts";
import type { AppContext } from "../client/app-context.ts";
import { asServer } from "../transport/operation-call.ts";

/**
 * Internal (project) API keys, admin only (spec §3 "Internal API key"; sdk-surface.md §8, §19; protocol.md §5.8).
 * Their whyInvalid reads expired first, as the reference kit's internal keys do (spec §4, the second reading).
 */

export interface InternalApiKeyCreateOptions {
  description: string;
  expiresAt: Date;
  hasPublishableClientKey: boolean;
  hasSecretServerKey: boolean;
  hasSuperSecretAdminKey: boolean;
}

interface InternalApiKeyBase {
  readonly id: string;
  readonly description: string;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly manuallyRevokedAt: Date | null;
  isValid(): boolean;
  whyInvalid(): ApiKeyInvalidReason | null;
  revoke(): Promise<void>;
}

export interface InternalApiKey extends InternalApiKeyBase {
  readonly publishableClientKey: { readonly lastFour: string } | null;
  readonly secretServerKey: { readonly lastFour: string } | null;
  readonly superSecretAdminKey: { readonly lastFour: string } | null;
}

/** Right after creation: the full key strings, the only time they are shown. */
export interface InternalApiKeyFirstView extends InternalApiKeyBase {
  readonly publishableClientKey?: string;
  readonly secretServerKey?: string;
  readonly superSecretAdminKey?: string;
}

function baseFromJson(ctx: AppContext, json: InternalApiKeyJson | InternalApiKeyFirstViewJson): InternalApiKeyBase {
  const why = () =>
    apiKeyInvalidReason(
      { expiresAtMillis: json.expires_at_millis, manuallyRevokedAtMillis: json.manually_revoked_at_millis },
      ctx.clock.now(),
      "expired-first",
    );
  return {
    id: json.id,
    description: json.description,
    expiresAt: new Date(json.expires_at_millis),
    createdAt: new Date(json.created_at_millis),
    manuallyRevokedAt: json.manually_revoked_at_millis !== undefined ? new Date(json.manually_revoked_at_millis) : null,
    isValid: () => why() === null,
    whyInvalid: why,
    async revoke() {
      await asServer.json(ctx.transport, "updateInternalApiKey", {
        params: { api_key_id: json.id },
        body: { revoked: true },
      });
    },
  };
}

const lastFour = (key: { last_four: string } | undefined) => (key ? { lastFour: key.last_four } : null);

export function internalApiKeyFromJson(ctx: AppContext, json: InternalApiKeyJson): InternalApiKey {
  return {
    ...baseFromJson(ctx, json),
    publishableClientKey: lastFour(json.publishable_client_key),
    secretServerKey: lastFour(json.secret_server_key),
    superSecretAdminKey: lastFour(json.super_secret_admin_key),
  };
}

export async function listInternalApiKeys(ctx: AppContext): Promise<InternalApiKey[]> {
  const page = await asServer.json(ctx.transport, "listInternalApiKeys", {});
  return page.items.map((json) => internalApiKeyFromJson(ctx, json));
}

export async function createInternalApiKey(
  ctx: AppContext,
  options: InternalApiKeyCreateOptions,
): Promise<InternalApiKeyFirstView> {
  const body = {
    description: options.description,
    expires_at_millis: options.expiresAt.getTime(),
    has_publishable_client_key: options.hasPublishableClientKey,
    has_secret_server_key: options.hasSecretServerKey,
    has_super_secret_admin_key: options.hasSuperSecretAdminKey,
  };
  const json = await asServer.json(ctx.transport, "createInternalApiKey", { body });
  return {
    ...baseFromJson(ctx, json),
    ...(json.publishable_client_key !== undefined ? { publishableClientKey: json.publishable_client_key } : {}),
    ...(json.secret_server_key !== undefined ? { secretServerKey: json.secret_server_key } : {}),
    ...(json.super_secret_admin_key !== undefined ? { superSecretAdminKey: json.super_secret_admin_key } : {}),
  };
}
