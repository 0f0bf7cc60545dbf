import type { ClientOAuthProviderJson, ConnectedAccountJson, ServerOAuthProviderJson } from "@authsim/sdk/contract";
import type { Tables } from "../store/store.ts";
import type { OAuthAccountRecord } from "../store/strong-auth-records.ts";

/** OAuth provider links and connected accounts on the wire (protocol.md §5.10). */

export function clientOAuthProviderView(account: OAuthAccountRecord): ClientOAuthProviderJson {
  return {
    user_id: account.userId,
    id: account.id,
    email: account.email,
    provider_config_id: account.providerConfigId,
    type: account.providerConfigId,
    allow_sign_in: account.allowSignIn,
    allow_connected_accounts: account.allowConnectedAccounts,
  };
}

export function serverOAuthProviderView(account: OAuthAccountRecord): ServerOAuthProviderJson {
  return { ...clientOAuthProviderView(account), account_id: account.providerAccountId };
}

export function connectedAccountView(account: OAuthAccountRecord): ConnectedAccountJson {
  return {
    user_id: account.userId,
    provider: account.providerConfigId,
    provider_account_id: account.providerAccountId,
  };
}

/** The user views' `oauth_providers` (protocol.md §5.2): the user's sign-in links, by provider id, oldest first. */
export function userOAuthProvidersView(
  tables: Tables,
  userId: string,
): { id: string; account_id: string; email: string | null }[] {
  return [...tables.oauthAccounts.values()]
    .filter((a) => a.userId === userId && a.allowSignIn)
    .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : 1))
    .map((a) => ({ id: a.providerConfigId, account_id: a.providerAccountId, email: a.email }));
}
