import { clientOAuthProvider, connectedAccountList, connectedAccountTokenResponse, oauthProviderList, serverOAuthProvider } from "../contract/areas/oauth-providers.ts";
import type { ClientOAuthProviderJson, ConnectedAccountJson, ServerOAuthProviderJson } from "../contract/areas/oauth-providers.ts";
import { KnownError, isKnownErrorOfType, type KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, err, ok, type Result } from "../errors/result.ts";
import type { RequestOptions } from "../transport/transport.ts";
import type { AppContext } from "./app-context.ts";

/**
 * OAuth provider links and connected accounts of a user (sdk-surface.md §11; protocol.md §5.10; spec §8 "OAuth"). The
 * same members serve the client's CurrentUser (`userId` "me", its session) and server users (an id, server access).
 */

export type AccountIdAlreadyUsed = KnownErrorOf<"OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN">;

export interface OAuthProvider {
  readonly id: string;
  readonly type: string;
  readonly userId: string;
  readonly accountId?: string | undefined;
  readonly email?: string | null | undefined;
  readonly allowSignIn: boolean;
  readonly allowConnectedAccounts: boolean;
  update(options: { allowSignIn?: boolean; allowConnectedAccounts?: boolean }): Promise<Result<void, AccountIdAlreadyUsed>>;
  delete(): Promise<void>;
}

export interface ServerOAuthProvider extends OAuthProvider {
  readonly accountId: string;
  update(options: { allowSignIn?: boolean; allowConnectedAccounts?: boolean; accountId?: string; email?: string | null }): Promise<Result<void, AccountIdAlreadyUsed>>;
}

/** A connected account (sdk-surface.md §11 "OAuthConnection"). */
export interface OAuthConnection {
  /** Deprecated: the same as provider. */
  readonly id: string;
  readonly provider: string;
  readonly providerAccountId: string;
  getAccessToken(options?: { scopes?: readonly string[] }): Promise<Result<{ accessToken: string }, KnownErrorOf<"OAUTH_ACCESS_TOKEN_NOT_AVAILABLE">>>;
}

export interface UserOAuthMembers<P extends OAuthProvider = OAuthProvider> {
  listOAuthProviders(): Promise<P[]>;
  getOAuthProvider(id: string): Promise<P | null>;
  listConnectedAccounts(): Promise<OAuthConnection[]>;
  getConnectedAccount(account: { provider: string; providerAccountId: string }): Promise<OAuthConnection | null>;
}

function providerFromJson<P extends OAuthProvider>(ctx: AppContext, auth: RequestOptions, json: ClientOAuthProviderJson & { account_id?: string }): P {
  const path = `/oauth-providers/${encodeURIComponent(json.user_id)}/${encodeURIComponent(json.id)}`;
  return {
    id: json.id,
    type: json.type,
    userId: json.user_id,
    accountId: json.account_id,
    email: json.email,
    allowSignIn: json.allow_sign_in,
    allowConnectedAccounts: json.allow_connected_accounts,
    update: (o: { allowSignIn?: boolean; allowConnectedAccounts?: boolean; accountId?: string; email?: string | null }) =>
      catchKnown(async () => {
        const body = { allow_sign_in: o.allowSignIn, allow_connected_accounts: o.allowConnectedAccounts, account_id: o.accountId, email: o.email };
        await ctx.transport.request(path, { ...auth, method: "PATCH", body });
      }, ["OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN"]),
    async delete() {
      await ctx.transport.request(path, { ...auth, method: "DELETE" });
    },
  } as P;
}

export function serverOAuthProviderFromJson(ctx: AppContext, json: ServerOAuthProviderJson): ServerOAuthProvider {
  return providerFromJson<ServerOAuthProvider>(ctx, {}, json);
}

/**
 * A token of a connected account; the errors of a link that is gone or too narrow give none (spec §8: missing scope
 * and not connected make the client return no access token).
 */
export async function connectedAccountToken(ctx: AppContext, auth: RequestOptions, path: string, scopes: readonly string[] | undefined): Promise<string | null> {
  try {
    const body = { scope: scopes && scopes.length > 0 ? scopes.join(" ") : undefined };
    return (await ctx.transport.requestJson(path, { ...auth, method: "POST", body }, connectedAccountTokenResponse)).access_token;
  } catch (error) {
    for (const code of ["OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE"] as const) {
      if (isKnownErrorOfType(error, code)) return null;
    }
    throw error;
  }
}

function connectionFromJson(ctx: AppContext, auth: RequestOptions, userId: string, json: ConnectedAccountJson): OAuthConnection {
  const path = `/connected-accounts/${encodeURIComponent(userId)}/${encodeURIComponent(json.provider)}/${encodeURIComponent(json.provider_account_id)}/access-token`;
  return {
    id: json.provider,
    provider: json.provider,
    providerAccountId: json.provider_account_id,
    async getAccessToken(options = {}) {
      const accessToken = await connectedAccountToken(ctx, auth, path, options.scopes);
      if (accessToken !== null) return ok({ accessToken });
      const scopes = options.scopes?.join(" ");
      const detail = scopes ? `The requested scopes [${scopes}] are not available on the existing token.` : "The OAuth refresh token has likely been revoked or expired.";
      return err(new KnownError("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE", { provider: json.provider, details: `${detail} The user needs to re-authorize by calling \`linkConnectedAccount\` or using \`getOrLinkConnectedAccount\`.` }) as KnownErrorOf<"OAUTH_ACCESS_TOKEN_NOT_AVAILABLE">);
    },
  };
}

/** `userId` is "me" with the user's session for a client, the user's id (server access) otherwise. */
export function userOAuthMembers<P extends OAuthProvider>(ctx: AppContext, auth: RequestOptions, userId: string): UserOAuthMembers<P> {
  const listProviders = async (): Promise<P[]> => {
    const list = await ctx.transport.requestJson("/oauth-providers", { ...auth, query: { user_id: userId } }, oauthProviderList);
    return list.items.map((item) => providerFromJson<P>(ctx, auth, (item.account_id === undefined ? clientOAuthProvider : serverOAuthProvider).parse(item)));
  };
  const listConnected = async (): Promise<OAuthConnection[]> => {
    const list = await ctx.transport.requestJson(`/connected-accounts/${encodeURIComponent(userId)}`, auth, connectedAccountList);
    return list.items.map((item) => connectionFromJson(ctx, auth, userId, item));
  };
  return {
    listOAuthProviders: listProviders,
    getOAuthProvider: async (id) => (await listProviders()).find((p) => p.id === id) ?? null,
    listConnectedAccounts: listConnected,
    getConnectedAccount: async ({ provider, providerAccountId }) => (await listConnected()).find((c) => c.provider === provider && c.providerAccountId === providerAccountId) ?? null,
  };
}
