import { z } from "zod";
import { byAccess, listEnvelope, userIdOrMe, uuidV4 } from "./common.ts";
import { byCaller, created, defineOperations, json, success, view } from "../define-operations.ts";

/**
 * A user's OAuth provider links (protocol.md §5.10; spec §3 "OAuth provider link") and the connected accounts built
 * on them. `id` is the link's own id; `provider_config_id` and `type` name the project's provider (e.g. "github").
 */

export const clientOAuthProvider = z.object({
  user_id: uuidV4,
  id: uuidV4,
  email: z.string().nullable().optional(),
  provider_config_id: z.string(),
  type: z.string(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
});
/** The server view adds the provider-side account id. */
export const serverOAuthProvider = clientOAuthProvider.extend({ account_id: z.string() });
export const oauthProviderView = byAccess(clientOAuthProvider, serverOAuthProvider);
export type ClientOAuthProviderJson = z.infer<typeof clientOAuthProvider>;
export type ServerOAuthProviderJson = z.infer<typeof serverOAuthProvider>;

export const oauthProviderList = listEnvelope(serverOAuthProvider.partial({ account_id: true }));

/** GET /oauth-providers?user_id= (a client names itself; a server may list any user's, or all). */
export const oauthProviderListQuery = z.strictObject({ user_id: userIdOrMe.optional() });
export const oauthProviderParams = z.strictObject({ user_id: userIdOrMe, provider_id: uuidV4 });

export const clientOAuthProviderUpdate = z.strictObject({
  allow_sign_in: z.boolean().optional(),
  allow_connected_accounts: z.boolean().optional(),
});
export const serverOAuthProviderUpdate = clientOAuthProviderUpdate.extend({
  email: z.string().nullable().optional(),
  account_id: z.string().min(1).optional(),
});
export const serverOAuthProviderCreate = z.strictObject({
  /** A user's id, or `me` for the signed-in user. */
  user_id: userIdOrMe,
  provider_config_id: z.string().min(1),
  account_id: z.string().min(1),
  email: z.string().nullable().optional(),
  allow_sign_in: z.boolean(),
  allow_connected_accounts: z.boolean(),
});
export type ServerOAuthProviderUpdate = z.infer<typeof serverOAuthProviderUpdate>;
export type ServerOAuthProviderCreate = z.infer<typeof serverOAuthProviderCreate>;

/** GET /connected-accounts/{user_id|me}: the links that allow connected accounts. */
export const connectedAccount = z.object({ user_id: uuidV4, provider: z.string(), provider_account_id: z.string() });
export type ConnectedAccountJson = z.infer<typeof connectedAccount>;
export const connectedAccountList = listEnvelope(connectedAccount);
export const connectedAccountListParams = z.strictObject({ user_id: userIdOrMe });
export const connectedAccountTokenParams = z.strictObject({ user_id: userIdOrMe, provider_id: z.string().min(1) });
export const connectedAccountTokenByAccountParams = connectedAccountTokenParams.extend({
  provider_account_id: z.string().min(1),
});
/** `scope`: space-separated provider scopes the token must carry. */
export const connectedAccountTokenBody = z.strictObject({ scope: z.string().optional() });
export const connectedAccountTokenResponse = z.object({ access_token: z.string().min(1) });

/** The connected-account token routes take `{ scope? }` or no body at all. */
export const connectedAccountTokenRequestBody = z.union([z.undefined(), connectedAccountTokenBody]);

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const oauthProvidersOperations = defineOperations("oauth-providers", {
  listOAuthProviders: {
    method: "GET",
    path: "/oauth-providers",
    access: "client",
    query: oauthProviderListQuery,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [json(oauthProviderList)],
  },
  createOAuthProvider: {
    method: "POST",
    path: "/oauth-providers",
    access: "server",
    body: serverOAuthProviderCreate,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      "USER_NOT_FOUND",
    ],
    responses: [created(serverOAuthProvider)],
  },
  getOAuthProvider: {
    method: "GET",
    path: "/oauth-providers/:user_id/:provider_id",
    access: "client",
    params: oauthProviderParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [view(oauthProviderView)],
  },
  updateOAuthProvider: {
    method: "PATCH",
    path: "/oauth-providers/:user_id/:provider_id",
    access: "client",
    params: oauthProviderParams,
    body: byCaller(clientOAuthProviderUpdate, serverOAuthProviderUpdate),
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      "USER_NOT_FOUND",
    ],
    responses: [view(oauthProviderView)],
  },
  deleteOAuthProvider: {
    method: "DELETE",
    path: "/oauth-providers/:user_id/:provider_id",
    access: "client",
    params: oauthProviderParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [success],
  },
  listConnectedAccounts: {
    method: "GET",
    path: "/connected-accounts/:user_id",
    access: "client",
    params: connectedAccountListParams,
    errors: ["CANNOT_GET_OWN_USER_WITHOUT_USER", "USER_NOT_FOUND"],
    responses: [json(connectedAccountList)],
  },
  connectedAccountToken: {
    method: "POST",
    path: "/connected-accounts/:user_id/:provider_id/access-token",
    access: "client",
    params: connectedAccountTokenParams,
    body: connectedAccountTokenRequestBody,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      "USER_NOT_FOUND",
    ],
    responses: [
      json(connectedAccountTokenResponse, 201, "A provider access token (upstream's CRUD create answers 201)"),
    ],
  },
  connectedAccountTokenByAccount: {
    method: "POST",
    path: "/connected-accounts/:user_id/:provider_id/:provider_account_id/access-token",
    access: "client",
    params: connectedAccountTokenByAccountParams,
    body: connectedAccountTokenRequestBody,
    errors: [
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      "USER_NOT_FOUND",
    ],
    responses: [
      json(connectedAccountTokenResponse, 201, "A provider access token (upstream's CRUD create answers 201)"),
    ],
  },
});
