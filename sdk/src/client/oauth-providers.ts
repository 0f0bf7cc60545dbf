import { clientOAuthProvider, serverOAuthProvider } from "../contract/areas/oauth-providers.ts";
import type {
  ClientOAuthProviderJson,
  ConnectedAccountJson,
  ServerOAuthProviderJson,
} from "../contract/areas/oauth-providers.ts";
import { KnownError, isKnownErrorOfType, type KnownErrorOf } from "../errors/known-error.ts";
import { catchKnown, err, ok, type Result } from "../errors/result.ts";
import { asClient, type CallAuth } from "../transport/operation-call.ts";
import type { AppContext } from "./app-context.ts";
import { caughtErrors } from "./caught-errors.ts";

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
  update(options: {
    allowSignIn?: boolean;
    allowConnectedAccounts?: boolean;
  }): Promise<Result<void, AccountIdAlreadyUsed>>;
  delete(): Promise<void>;
}

export interface ServerOAuthProvider extends OAuthProvider {
  readonly accountId: string;
  update(options: {
    allowSignIn?: boolean;
    allowConnectedAccounts?: boolean;
    accountId?: string;
    email?: string | null;
  }): Promise<Result<void, AccountIdAlreadyUsed>>;
}

/** A connected account (sdk-surface.md §11 "OAuthConnection"). */
export interface OAuthConnection {
  /** Deprecated: the same as provider. */
  readonly id: string;
  readonly provider: string;
  readonly providerAccountId: string;
  getAccessToken(options?: {
    scopes?: readonly string[];
  }): Promise<Result<{ accessToken: string }, KnownErrorOf<"OAUTH_ACCESS_TOKEN_NOT_AVAILABLE">>>;
}

export interface UserOAuthMembers<P extends OAuthProvider = OAuthProvider> {
  listOAuthProviders(): Promise<P[]>;
  getOAuthProvider(id: string): Promise<P | null>;
  listConnectedAccounts(): Promise<OAuthConnection[]>;
  getConnectedAccount(account: { provider: string; providerAccountId: string }): Promise<OAuthConnection | null>;
}

function providerFromJson<P extends OAuthProvider>(
  ctx: AppContext,
  auth: CallAuth,
  json: ClientOAuthProviderJson & { account_id?: string },
): P {
  const params = { user_id: json.user_id, provider_id: json.id };
  return {
    id: json.id,
    type: json.type,
    userId: json.user_id,
    accountId: json.account_id,
    email: json.email,
    allowSignIn: json.allow_sign_in,
    allowConnectedAccounts: json.allow_connected_accounts,
    update: (o: {
      allowSignIn?: boolean;
      allowConnectedAccounts?: boolean;
      accountId?: string;
      email?: string | null;
    }) =>
      catchKnown(async () => {
        const body = {
          allow_sign_in: o.allowSignIn,
          allow_connected_accounts: o.allowConnectedAccounts,
          account_id: o.accountId,
          email: o.email,
        };
        await asClient.send(ctx.transport, "updateOAuthProvider", { ...auth, params, body });
      }, caughtErrors.updateOAuthProvider),
    async delete() {
      await asClient.send(ctx.transport, "deleteOAuthProvider", { ...auth, params });
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
/** Whose token: a provider of the user (the first account connected with it), or one account of it. */
export interface ConnectedAccountRef {
  userId: string;
  provider: string;
  providerAccountId?: string;
}

export async function connectedAccountToken(
  ctx: AppContext,
  auth: CallAuth,
  account: ConnectedAccountRef,
  scopes: readonly string[] | undefined,
): Promise<string | null> {
  try {
    const body = { scope: scopes && scopes.length > 0 ? scopes.join(" ") : undefined };
    const params = { user_id: account.userId, provider_id: account.provider };
    const json =
      account.providerAccountId === undefined
        ? await asClient.json(ctx.transport, "connectedAccountToken", { ...auth, params, body })
        : await asClient.json(ctx.transport, "connectedAccountTokenByAccount", {
            ...auth,
            params: { ...params, provider_account_id: account.providerAccountId },
            body,
          });
    return json.access_token;
  } catch (error) {
    for (const code of caughtErrors[
      account.providerAccountId === undefined ? "connectedAccountToken" : "connectedAccountTokenByAccount"
    ]) {
      if (isKnownErrorOfType(error, code)) return null;
    }
    throw error;
  }
}

function connectionFromJson(
  ctx: AppContext,
  auth: CallAuth,
  userId: string,
  json: ConnectedAccountJson,
): OAuthConnection {
  const account = { userId, provider: json.provider, providerAccountId: json.provider_account_id };
  return {
    id: json.provider,
    provider: json.provider,
    providerAccountId: json.provider_account_id,
    async getAccessToken(options = {}) {
      const accessToken = await connectedAccountToken(ctx, auth, account, options.scopes);
      if (accessToken !== null) return ok({ accessToken });
      const scopes = options.scopes?.join(" ");
      const detail = scopes
        ? `The requested scopes [${scopes}] are not available on the existing token.`
        : "The OAuth refresh token has likely been revoked or expired.";
      return err(
        new KnownError("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE", {
          provider: json.provider,
          details: `${detail} The user needs to re-authorize by calling \`linkConnectedAccount\` or using \`getOrLinkConnectedAccount\`.`,
        }) as KnownErrorOf<"OAUTH_ACCESS_TOKEN_NOT_AVAILABLE">,
      );
    },
  };
}

/** `userId` is "me" with the user's session for a client, the user's id (server access) otherwise. */
export function userOAuthMembers<P extends OAuthProvider>(
  ctx: AppContext,
  auth: CallAuth,
  userId: string,
): UserOAuthMembers<P> {
  const listProviders = async (): Promise<P[]> => {
    const list = await asClient.json(ctx.transport, "listOAuthProviders", { ...auth, query: { user_id: userId } });
    return list.items.map((item) =>
      providerFromJson<P>(
        ctx,
        auth,
        (item.account_id === undefined ? clientOAuthProvider : serverOAuthProvider).parse(item),
      ),
    );
  };
  const listConnected = async (): Promise<OAuthConnection[]> => {
    const list = await asClient.json(ctx.transport, "listConnectedAccounts", { ...auth, params: { user_id: userId } });
    return list.items.map((item) => connectionFromJson(ctx, auth, userId, item));
  };
  return {
    listOAuthProviders: listProviders,
    getOAuthProvider: async (id) => (await listProviders()).find((p) => p.id === id) ?? null,
    listConnectedAccounts: listConnected,
    getConnectedAccount: async ({ provider, providerAccountId }) =>
      (await listConnected()).find((c) => c.provider === provider && c.providerAccountId === providerAccountId) ?? null,
  };
}
