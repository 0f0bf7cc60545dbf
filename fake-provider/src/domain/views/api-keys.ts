import type { ApiKeyFirstViewJson, ApiKeyJson } from "@authsim/sdk/contract";
import type { ProjectApiKeyRecord } from "../store/account-records.ts";

/** protocol.md §5.8: the full value only in the create answer, afterwards its last four characters. */
function base(key: ProjectApiKeyRecord) {
  return {
    id: key.id,
    description: key.description,
    created_at_millis: key.createdAtMillis,
    ...(key.expiresAtMillis !== null ? { expires_at_millis: key.expiresAtMillis } : {}),
    ...(key.manuallyRevokedAtMillis !== null ? { manually_revoked_at_millis: key.manuallyRevokedAtMillis } : {}),
    is_public: key.isPublic,
  };
}

const owner = (key: ProjectApiKeyRecord) =>
  key.type === "user"
    ? ({ type: "user", user_id: key.userId! } as const)
    : ({ type: "team", team_id: key.teamId! } as const);

export function apiKeyView(key: ProjectApiKeyRecord): ApiKeyJson {
  return { ...base(key), ...owner(key), value: { last_four: key.value.slice(-4) } };
}

export function apiKeyFirstView(key: ProjectApiKeyRecord): ApiKeyFirstViewJson {
  return { ...base(key), ...owner(key), value: key.value };
}
