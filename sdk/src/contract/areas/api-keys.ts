import { z } from "zod";
import { listEnvelope, millis, userIdOrMe, uuidV4 } from "./common.ts";
import { defineOperations, json, success } from "../define-operations.ts";

/**
 * User and team API keys (spec §3 "API key", §4 validity, §5; protocol.md §5.8). The full value is shown once, in the
 * create answer; every later read carries only its last four characters.
 */
export const apiKeyTypes = ["user", "team"] as const;
export type ApiKeyType = (typeof apiKeyTypes)[number];

const apiKeyBase = {
  id: uuidV4,
  description: z.string(),
  created_at_millis: millis,
  expires_at_millis: millis.optional(),
  manually_revoked_at_millis: millis.optional(),
  is_public: z.boolean(),
};
const lastFour = z.object({ last_four: z.string() });

export const userApiKey = z.object({ ...apiKeyBase, type: z.literal("user"), user_id: uuidV4, value: lastFour });
export const teamApiKey = z.object({ ...apiKeyBase, type: z.literal("team"), team_id: uuidV4, value: lastFour });
export const anyApiKey = z.discriminatedUnion("type", [userApiKey, teamApiKey]);
export const userApiKeyFirstView = userApiKey.extend({ value: z.string() });
export const teamApiKeyFirstView = teamApiKey.extend({ value: z.string() });
export const anyApiKeyFirstView = z.discriminatedUnion("type", [userApiKeyFirstView, teamApiKeyFirstView]);
export type ApiKeyJson = z.infer<typeof anyApiKey>;
export type ApiKeyFirstViewJson = z.infer<typeof anyApiKeyFirstView>;
export const apiKeyList = listEnvelope(anyApiKey);

/** spec §5: an API key request must not carry both user_id and team_id. */
const BOTH_OWNERS = "user_id and team_id cannot both be given: an API key belongs to a user or to a team";
const notBoth = (v: { user_id?: unknown; team_id?: unknown }) => v.user_id === undefined || v.team_id === undefined;

const createFields = {
  description: z.string().max(1024),
  /** Required, null for a key that never expires (protocol.md §5.8). */
  expires_at_millis: millis.nullable(),
  is_public: z.boolean().optional(),
};
export const userApiKeyCreate = z
  .strictObject({ ...createFields, user_id: userIdOrMe, team_id: uuidV4.optional() })
  .refine(notBoth, { message: BOTH_OWNERS, path: ["team_id"] });
export const teamApiKeyCreate = z
  .strictObject({ ...createFields, team_id: uuidV4, user_id: userIdOrMe.optional() })
  .refine(notBoth, { message: BOTH_OWNERS, path: ["user_id"] });
export type ApiKeyCreate = { description: string; expires_at_millis: number | null; is_public?: boolean | undefined };

/** `revoked` can only be set; a revoked key stays revoked. */
export const apiKeyUpdate = z.strictObject({
  description: z.string().max(1024).optional(),
  expires_at_millis: millis.nullable().optional(),
  revoked: z.literal(true).optional(),
});
export type ApiKeyUpdate = z.infer<typeof apiKeyUpdate>;

/**
 * Lists name the owner: ?user_id= for user keys, ?team_id= for team keys (the other owner is an unknown property, as
 * upstream's schema has it); reads and updates may name it too. A list without its owner is upstream's SCHEMA_ERROR
 * "user_id is required for user API keys" (the route says so: it is not a schema line).
 */
export const userApiKeyListQuery = z.strictObject({ user_id: userIdOrMe.optional() });
export const teamApiKeyListQuery = z.strictObject({ team_id: uuidV4.optional() });
export const userApiKeyItemQuery = z.strictObject({ user_id: userIdOrMe.optional() });
export const teamApiKeyItemQuery = z.strictObject({ team_id: uuidV4.optional() });
export const apiKeyParams = z.strictObject({ api_key_id: uuidV4 });
export const apiKeyCheckBody = z.strictObject({ api_key: z.string().min(1) });

/**
 * The two readings of spec §4 when a key is both expired and manually revoked: the client kit reports
 * "manually-revoked" first, the provider's key check (and the internal-key objects) report "expired" first. A key
 * expires once its expiry is strictly in the past.
 */
export type ApiKeyInvalidReason = "manually-revoked" | "expired";
export function apiKeyInvalidReason(
  key: { expiresAtMillis: number | null | undefined; manuallyRevokedAtMillis: number | null | undefined },
  nowMillis: number,
  reading: "revoked-first" | "expired-first",
): ApiKeyInvalidReason | null {
  const expired = key.expiresAtMillis !== null && key.expiresAtMillis !== undefined && key.expiresAtMillis < nowMillis;
  const revoked = key.manuallyRevokedAtMillis !== null && key.manuallyRevokedAtMillis !== undefined;
  if (reading === "revoked-first") return revoked ? "manually-revoked" : expired ? "expired" : null;
  return expired ? "expired" : revoked ? "manually-revoked" : null;
}

/** POST /integrations/credential-scanning/revoke: a leaked secret, as a secret scanner found it. */
export const credentialScanningRevokeBody = z.strictObject({ api_key: z.string() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const apiKeysOperations = defineOperations("api-keys", {
  // A secret scanner (upstream: GitHub's) reports a leaked key: anyone may, since only the secret's holder can name it.
  revokeLeakedApiKey: {
    method: "POST",
    path: "/integrations/credential-scanning/revoke",
    access: "none",
    body: credentialScanningRevokeBody,
    errors: ["API_KEY_EXPIRED", "API_KEY_NOT_FOUND", "PUBLIC_API_KEY_CANNOT_BE_REVOKED"],
    responses: [success],
  },
  listUserApiKeys: {
    method: "GET",
    path: "/user-api-keys",
    access: "client",
    query: userApiKeyListQuery,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "SCHEMA_ERROR", "USER_NOT_FOUND"],
    responses: [json(apiKeyList)],
  },
  createUserApiKey: {
    method: "POST",
    path: "/user-api-keys",
    access: "client",
    body: userApiKeyCreate,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [json(userApiKeyFirstView)],
  },
  checkUserApiKey: {
    method: "POST",
    path: "/user-api-keys/check",
    access: "client",
    body: apiKeyCheckBody,
    errors: ["API_KEY_EXPIRED", "API_KEY_NOT_FOUND", "API_KEY_REVOKED", "WRONG_API_KEY_TYPE"],
    responses: [json(userApiKey)],
  },
  getUserApiKey: {
    method: "GET",
    path: "/user-api-keys/:api_key_id",
    access: "client",
    params: apiKeyParams,
    query: userApiKeyItemQuery,
    errors: ["API_KEY_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(userApiKey)],
  },
  updateUserApiKey: {
    method: "PATCH",
    path: "/user-api-keys/:api_key_id",
    access: "client",
    params: apiKeyParams,
    query: userApiKeyItemQuery,
    body: apiKeyUpdate,
    errors: ["API_KEY_NOT_FOUND", "PUBLIC_API_KEY_CANNOT_BE_REVOKED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(userApiKey)],
  },
  listTeamApiKeys: {
    method: "GET",
    path: "/team-api-keys",
    access: "client",
    query: teamApiKeyListQuery,
    errors: ["API_KEY_NOT_FOUND", "SCHEMA_ERROR", "TEAM_NOT_FOUND"],
    responses: [json(apiKeyList)],
  },
  createTeamApiKey: {
    method: "POST",
    path: "/team-api-keys",
    access: "client",
    body: teamApiKeyCreate,
    errors: ["API_KEY_NOT_FOUND", "TEAM_NOT_FOUND"],
    responses: [json(teamApiKeyFirstView)],
  },
  checkTeamApiKey: {
    method: "POST",
    path: "/team-api-keys/check",
    access: "client",
    body: apiKeyCheckBody,
    errors: ["API_KEY_EXPIRED", "API_KEY_NOT_FOUND", "API_KEY_REVOKED", "WRONG_API_KEY_TYPE"],
    responses: [json(teamApiKey)],
  },
  getTeamApiKey: {
    method: "GET",
    path: "/team-api-keys/:api_key_id",
    access: "client",
    params: apiKeyParams,
    query: teamApiKeyItemQuery,
    errors: ["API_KEY_NOT_FOUND", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(teamApiKey)],
  },
  updateTeamApiKey: {
    method: "PATCH",
    path: "/team-api-keys/:api_key_id",
    access: "client",
    params: apiKeyParams,
    query: teamApiKeyItemQuery,
    body: apiKeyUpdate,
    errors: ["API_KEY_NOT_FOUND", "PUBLIC_API_KEY_CANNOT_BE_REVOKED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(teamApiKey)],
  },
});
