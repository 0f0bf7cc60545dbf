import { created, defineOperations, json, success, type OperationDefinition } from "../define-operations.ts";
import {
  integrationClientHeaders,
  integrationProjectQuery,
  neonApiKeyCreate,
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
import { internalApiKeyFirstView, internalApiKeysOperations } from "./internal-api-keys.ts";
import { projectAdminOperations } from "./project-admin.ts";

/** An operation served again at another path (upstream's route file re-exports the handler): all but its id and path. */
function sameAs<const D extends OperationDefinition & { id: string; area: string }, const P extends string>(
  definition: D,
  path: P,
): Omit<D, "id" | "area" | "path"> & { path: P } {
  const { id: _id, area: _area, path: _path, ...rest } = definition;
  return { ...rest, path };
}

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
  neonGetProject: sameAs(projectAdminOperations.getAdminProject, "/integrations/neon/projects/current"),
  neonUpdateProject: sameAs(projectAdminOperations.updateAdminProject, "/integrations/neon/projects/current"),
  neonListApiKeys: sameAs(internalApiKeysOperations.listInternalApiKeys, "/integrations/neon/api-keys"),
  neonCreateApiKey: {
    method: "POST",
    path: "/integrations/neon/api-keys",
    access: "admin",
    body: neonApiKeyCreate,
    errors: [],
    responses: [json(internalApiKeyFirstView)],
  },
  neonGetApiKey: sameAs(internalApiKeysOperations.getInternalApiKey, "/integrations/neon/api-keys/:api_key_id"),
  neonUpdateApiKey: sameAs(internalApiKeysOperations.updateInternalApiKey, "/integrations/neon/api-keys/:api_key_id"),
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
