import { NEVER_EXPIRES_MILLIS, type InternalApiKeyFirstViewJson, type InternalApiKeyJson } from "@authsim/sdk/contract";
import type { ApiKeySetRecord } from "../store/records.ts";

/** protocol.md §5.8: full key strings only in the create answer; afterwards `{last_four}`, and absent keys omitted. */
function base(set: ApiKeySetRecord) {
  return {
    id: set.id,
    description: set.description,
    // The published SDK reads expires_at_millis as a number; a set without expiry (the seeded one) never expires.
    expires_at_millis: set.expiresAtMillis ?? NEVER_EXPIRES_MILLIS,
    ...(set.manuallyRevokedAtMillis !== null ? { manually_revoked_at_millis: set.manuallyRevokedAtMillis } : {}),
    created_at_millis: set.createdAtMillis,
  };
}

export function internalApiKeyView(set: ApiKeySetRecord): InternalApiKeyJson {
  return {
    ...base(set),
    ...(set.publishableClientKey !== null
      ? { publishable_client_key: { last_four: set.publishableClientKey.slice(-4) } }
      : {}),
    ...(set.secretServerKey !== null ? { secret_server_key: { last_four: set.secretServerKey.slice(-4) } } : {}),
    ...(set.superSecretAdminKey !== null
      ? { super_secret_admin_key: { last_four: set.superSecretAdminKey.slice(-4) } }
      : {}),
  };
}

export function internalApiKeyFirstView(set: ApiKeySetRecord): InternalApiKeyFirstViewJson {
  return {
    ...base(set),
    ...(set.publishableClientKey !== null ? { publishable_client_key: set.publishableClientKey } : {}),
    ...(set.secretServerKey !== null ? { secret_server_key: set.secretServerKey } : {}),
    ...(set.superSecretAdminKey !== null ? { super_secret_admin_key: set.superSecretAdminKey } : {}),
  };
}
