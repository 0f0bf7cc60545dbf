import {
  anyApiKeyFirstView,
  apiKeyInvalidReason,
  type ApiKeyFirstViewJson,
  type ApiKeyInvalidReason,
  type ApiKeyJson,
  type ApiKeyType,
} from "../contract/areas/api-keys.ts";
import type { Clock } from "../runtime/clock.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";

/**
 * User and team API keys (spec §3, §4; sdk-surface.md §14). The client kit's reading of spec §4: a key both revoked
 * and expired is "manually-revoked" (the provider's check says expired first; see contract/areas/api-keys.ts).
 */

export interface ApiKeyCreationOptions {
  description: string;
  /** Null for a key that never expires. */
  expiresAt: Date | null;
  /** A public key may be shown to others (e.g. in a browser); it cannot be revoked. */
  isPublic?: boolean;
}

export interface ApiKeyUpdateOptions {
  description?: string;
  expiresAt?: Date | null;
  revoked?: boolean;
}

interface ApiKeyCommon {
  readonly id: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly expiresAt?: Date;
  readonly manuallyRevokedAt: Date | null;
  readonly isPublic: boolean;
  /** Sync: judged by the app's clock, revocation first (spec §4). */
  isValid(): boolean;
  whyInvalid(): ApiKeyInvalidReason | null;
  update(options: ApiKeyUpdateOptions): Promise<void>;
  /** Sets the revoked flag; a public key refuses (PUBLIC_API_KEY_CANNOT_BE_REVOKED). */
  revoke(): Promise<void>;
}

type Owner<T extends ApiKeyType> = T extends "user"
  ? { readonly type: "user"; readonly userId: string }
  : { readonly type: "team"; readonly teamId: string };
export type ApiKey<T extends ApiKeyType = ApiKeyType, FirstView extends boolean = false> = ApiKeyCommon &
  Owner<T> & { readonly value: FirstView extends true ? string : { readonly lastFour: string } };

export type UserApiKey = ApiKey<"user">;
export type UserApiKeyFirstView = ApiKey<"user", true>;
export type TeamApiKey = ApiKey<"team">;
export type TeamApiKeyFirstView = ApiKey<"team", true>;

export function apiKeyUpdateToWire(o: ApiKeyUpdateOptions) {
  return {
    description: o.description,
    expires_at_millis: o.expiresAt === undefined ? undefined : o.expiresAt === null ? null : o.expiresAt.getTime(),
    revoked: o.revoked ? (true as const) : undefined,
  };
}

/** Why a key is not valid now, in the client kit's order (revocation first). */
export function whyApiKeyInvalid(json: ApiKeyJson | ApiKeyFirstViewJson, clock: Clock): ApiKeyInvalidReason | null {
  return apiKeyInvalidReason(
    { expiresAtMillis: json.expires_at_millis, manuallyRevokedAtMillis: json.manually_revoked_at_millis },
    clock.now(),
    "revoked-first",
  );
}

/** `auth` carries the session for a client, nothing for server access (the secret key authenticates). */
export function apiKeyFromJson(ctx: AppContext, auth: CallAuth, json: ApiKeyJson): ApiKey;
export function apiKeyFromJson(ctx: AppContext, auth: CallAuth, json: ApiKeyFirstViewJson): ApiKey<ApiKeyType, true>;
export function apiKeyFromJson(
  ctx: AppContext,
  auth: CallAuth,
  json: ApiKeyJson | ApiKeyFirstViewJson,
): ApiKey | ApiKey<ApiKeyType, true> {
  const update = async (options: ApiKeyUpdateOptions) => {
    const params = { api_key_id: json.id };
    const body = apiKeyUpdateToWire(options);
    await (json.type === "user"
      ? asClient.send(ctx.transport, "updateUserApiKey", { ...auth, params, query: { user_id: json.user_id }, body })
      : asClient.send(ctx.transport, "updateTeamApiKey", { ...auth, params, query: { team_id: json.team_id }, body }));
  };
  const common: ApiKeyCommon = {
    id: json.id,
    description: json.description,
    createdAt: new Date(json.created_at_millis),
    ...(json.expires_at_millis !== undefined ? { expiresAt: new Date(json.expires_at_millis) } : {}),
    manuallyRevokedAt: json.manually_revoked_at_millis !== undefined ? new Date(json.manually_revoked_at_millis) : null,
    isPublic: json.is_public,
    isValid: () => whyApiKeyInvalid(json, ctx.clock) === null,
    whyInvalid: () => whyApiKeyInvalid(json, ctx.clock),
    update,
    revoke: () => update({ revoked: true }),
  };
  const owner =
    json.type === "user"
      ? { type: "user" as const, userId: json.user_id }
      : { type: "team" as const, teamId: json.team_id };
  const value = typeof json.value === "string" ? json.value : { lastFour: json.value.last_four };
  return { ...common, ...owner, value } as ApiKey | ApiKey<ApiKeyType, true>;
}

export function apiKeyCreationToWire(o: ApiKeyCreationOptions) {
  return {
    description: o.description,
    expires_at_millis: o.expiresAt === null ? null : o.expiresAt.getTime(),
    is_public: o.isPublic,
  };
}

/** POST /user-api-keys with `user_id` (an id or "me"): the only answer that holds the full value. */
export async function createUserApiKey(
  ctx: AppContext,
  auth: CallAuth,
  userId: string,
  options: ApiKeyCreationOptions,
): Promise<UserApiKeyFirstView> {
  const json = await asClient.jsonAs(
    ctx.transport,
    "createUserApiKey",
    { ...auth, body: { ...apiKeyCreationToWire(options), user_id: userId } },
    anyApiKeyFirstView,
  );
  return apiKeyFromJson(ctx, auth, json) as UserApiKeyFirstView;
}

export async function listUserApiKeys(ctx: AppContext, auth: CallAuth, userId: string): Promise<UserApiKey[]> {
  const page = await asClient.json(ctx.transport, "listUserApiKeys", { ...auth, query: { user_id: userId } });
  return page.items.map((json) => apiKeyFromJson(ctx, auth, json) as UserApiKey);
}

/** Team keys, for the team objects of the teams area to offer as team.createApiKey / team.listApiKeys. */
export function teamApiKeyCalls(ctx: AppContext, auth: CallAuth, teamId: string) {
  return {
    async createApiKey(options: ApiKeyCreationOptions): Promise<TeamApiKeyFirstView> {
      const json = await asClient.jsonAs(
        ctx.transport,
        "createTeamApiKey",
        { ...auth, body: { ...apiKeyCreationToWire(options), team_id: teamId } },
        anyApiKeyFirstView,
      );
      return apiKeyFromJson(ctx, auth, json) as TeamApiKeyFirstView;
    },
    async listApiKeys(): Promise<TeamApiKey[]> {
      const page = await asClient.json(ctx.transport, "listTeamApiKeys", { ...auth, query: { team_id: teamId } });
      return page.items.map((json) => apiKeyFromJson(ctx, auth, json) as TeamApiKey);
    },
  };
}
