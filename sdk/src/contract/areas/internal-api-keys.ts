import { z } from "zod";
import { listEnvelope, millis, uuidV4 } from "./common.ts";
import { defineOperations, json } from "../define-operations.ts";

/**
 * Internal (project) API keys: a set of publishable / secret / admin keys (spec §3 "Internal API key", protocol.md
 * §5.8). Full values only in the create answer; afterwards `{last_four}`.
 */
const lastFour = z.object({ last_four: z.string() });

const internalApiKeyBase = {
  id: uuidV4,
  description: z.string(),
  /** A set that never expires reads as the latest representable time (the published SDK requires a number). */
  expires_at_millis: millis,
  manually_revoked_at_millis: millis.optional(),
  created_at_millis: millis,
};
export const internalApiKey = z.object({
  ...internalApiKeyBase,
  publishable_client_key: lastFour.optional(),
  secret_server_key: lastFour.optional(),
  super_secret_admin_key: lastFour.optional(),
});
export const internalApiKeyFirstView = z.object({
  ...internalApiKeyBase,
  publishable_client_key: z.string().optional(),
  secret_server_key: z.string().optional(),
  super_secret_admin_key: z.string().optional(),
});
export type InternalApiKeyJson = z.infer<typeof internalApiKey>;
export type InternalApiKeyFirstViewJson = z.infer<typeof internalApiKeyFirstView>;
export const internalApiKeyList = listEnvelope(internalApiKey);

/** The largest time a JS Date holds: how a set without expiry reads. */
export const NEVER_EXPIRES_MILLIS = 8_640_000_000_000_000;

export const internalApiKeyCreate = z.strictObject({
  description: z.string().max(1024),
  expires_at_millis: millis,
  has_publishable_client_key: z.boolean(),
  has_secret_server_key: z.boolean(),
  has_super_secret_admin_key: z.boolean(),
});
export type InternalApiKeyCreate = z.infer<typeof internalApiKeyCreate>;
export const internalApiKeyUpdate = z.strictObject({
  description: z.string().max(1024).optional(),
  revoked: z.literal(true).optional(),
});
export const internalApiKeyParams = z.strictObject({ api_key_id: uuidV4 });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const internalApiKeysOperations = defineOperations("internal-api-keys", {
  listInternalApiKeys: {
    method: "GET",
    path: "/internal/api-keys",
    access: "admin",
    errors: [],
    responses: [json(internalApiKeyList)],
  },
  createInternalApiKey: {
    method: "POST",
    path: "/internal/api-keys",
    access: "admin",
    body: internalApiKeyCreate,
    errors: [],
    responses: [json(internalApiKeyFirstView)],
  },
  getInternalApiKey: {
    method: "GET",
    path: "/internal/api-keys/:api_key_id",
    access: "admin",
    params: internalApiKeyParams,
    errors: ["API_KEY_NOT_FOUND"],
    responses: [json(internalApiKey)],
  },
  updateInternalApiKey: {
    method: "PATCH",
    path: "/internal/api-keys/:api_key_id",
    access: "admin",
    params: internalApiKeyParams,
    body: internalApiKeyUpdate,
    errors: ["API_KEY_NOT_FOUND"],
    responses: [json(internalApiKey)],
  },
});
