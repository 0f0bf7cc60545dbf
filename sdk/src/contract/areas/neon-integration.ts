import { created, defineOperations, json, success } from "../define-operations.ts";
import {
  integrationClientHeaders,
  integrationProjectQuery,
  neonApiKeyCreate,
  neonApiKeyParams,
  neonConnectionBody,
  neonOAuthProvider,
  neonOAuthProviderCreate,
  neonOAuthProviderList,
  neonOAuthProviderParams,
  neonOAuthProviderUpdate,
  neonWebhookBody,
  neonWebhookResponse,
  transferredProject,
} from "./integrations.ts";
import { internalApiKey, internalApiKeyFirstView, internalApiKeyList, internalApiKeyUpdate } from "./internal-api-keys.ts";
import { adminProjectUpdate } from "./project-admin.ts";
import { adminProject } from "./projects.ts";

/**
 * The routes only Neon's integration has (the shared ones: integrations.ts): attaching its databases to a provisioned
 * project, and admin views of a project under /integrations/neon (the project, its API keys, its OAuth providers, a
 * webhook endpoint), each the same state the internal routes read and write.
 */
export const neonIntegrationOperations = defineOperations("neon-integration", {
  neonProjectConnection: {
    method: "POST",
    path: "/integrations/neon/projects/connection",
    access: "none",
    headers: integrationClientHeaders,
    query: integrationProjectQuery,
    body: neonConnectionBody,
    errors: ["SCHEMA_ERROR", "PROJECT_NOT_FOUND"],
    responses: [json(transferredProject)],
  },
  neonGetProject: {
    method: "GET",
    path: "/integrations/neon/projects/current",
    access: "admin",
    errors: [],
    responses: [json(adminProject)],
  },
  neonUpdateProject: {
    method: "PATCH",
    path: "/integrations/neon/projects/current",
    access: "admin",
    body: adminProjectUpdate,
    errors: [
      "INVALID_SHARED_OAUTH_PROVIDER_ID",
      "INVALID_STANDARD_OAUTH_PROVIDER_ID",
      "PERMISSION_NOT_FOUND",
      "SCHEMA_ERROR",
      "WRONG_PERMISSION_SCOPE",
    ],
    responses: [json(adminProject)],
  },
  neonListApiKeys: {
    method: "GET",
    path: "/integrations/neon/api-keys",
    access: "admin",
    errors: [],
    responses: [json(internalApiKeyList)],
  },
  neonCreateApiKey: {
    method: "POST",
    path: "/integrations/neon/api-keys",
    access: "admin",
    body: neonApiKeyCreate,
    errors: [],
    responses: [json(internalApiKeyFirstView)],
  },
  neonGetApiKey: {
    method: "GET",
    path: "/integrations/neon/api-keys/:api_key_id",
    access: "admin",
    params: neonApiKeyParams,
    errors: ["API_KEY_NOT_FOUND"],
    responses: [json(internalApiKey)],
  },
  neonUpdateApiKey: {
    method: "PATCH",
    path: "/integrations/neon/api-keys/:api_key_id",
    access: "admin",
    params: neonApiKeyParams,
    body: internalApiKeyUpdate,
    errors: ["API_KEY_NOT_FOUND"],
    responses: [json(internalApiKey)],
  },
  neonListOAuthProviders: {
    method: "GET",
    path: "/integrations/neon/oauth-providers",
    access: "admin",
    errors: [],
    responses: [json(neonOAuthProviderList)],
  },
  neonCreateOAuthProvider: {
    method: "POST",
    path: "/integrations/neon/oauth-providers",
    access: "admin",
    body: neonOAuthProviderCreate,
    errors: ["INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID"],
    responses: [created(neonOAuthProvider)],
  },
  neonUpdateOAuthProvider: {
    method: "PATCH",
    path: "/integrations/neon/oauth-providers/:oauth_provider_id",
    access: "admin",
    params: neonOAuthProviderParams,
    body: neonOAuthProviderUpdate,
    errors: ["INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID"],
    responses: [json(neonOAuthProvider)],
  },
  neonDeleteOAuthProvider: {
    method: "DELETE",
    path: "/integrations/neon/oauth-providers/:oauth_provider_id",
    access: "admin",
    params: neonOAuthProviderParams,
    errors: [],
    responses: [success],
  },
  neonCreateWebhook: {
    method: "POST",
    path: "/integrations/neon/webhooks",
    access: "client",
    headers: integrationClientHeaders,
    body: neonWebhookBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(neonWebhookResponse)],
  },
});
