import { z } from "zod";
import { byAccess, listEnvelope, userIdOrMe, uuidV4 } from "./common.ts";

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
export const connectedAccountTokenByAccountParams = connectedAccountTokenParams.extend({ provider_account_id: z.string().min(1) });
/** `scope`: space-separated provider scopes the token must carry. */
export const connectedAccountTokenBody = z.strictObject({ scope: z.string().optional() });
export const connectedAccountTokenResponse = z.object({ access_token: z.string().min(1) });

/** The connected-account token routes take `{ scope? }` or no body at all. */
export const connectedAccountTokenRequestBody = z.union([z.undefined(), connectedAccountTokenBody]);
/** GET /auth/oauth/connected-accounts/:provider_id/access-token (the legacy form): the scope is in the query. */
export const legacyConnectedAccountTokenQuery = z.strictObject({ scope: z.string().optional() });
