import type { Auth } from "../auth/parse-auth.ts";
import {
  accountsOfProject,
  accountsOfUser,
  connectedAccountAccessToken,
  createAccount,
  deleteAccount,
  requireAccount,
  updateAccount,
} from "../../domain/ops/oauth/oauth-accounts.ts";
import type { OAuthAccountRecord } from "../../domain/store/strong-auth-records.ts";
import {
  clientOAuthProviderView,
  connectedAccountView,
  serverOAuthProviderView,
} from "../../domain/views/oauth-providers.ts";
import { created, ok, success, type RouteTable } from "./define.ts";
import { targetUser } from "../../domain/ops/access.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import { linkOwner, listingOwner, OAUTH_PROVIDERS } from "../../domain/ops/oauth/oauth-account-owners.ts";
import { refusal } from "../../domain/errors/refusals.ts";

/** OAuth provider links and connected accounts (protocol.md §5.10; spec §7 "/oauth-providers", "/connected-accounts"). */
const WHAT = OAUTH_PROVIDERS;

const viewFor = (auth: Auth) => (auth.type === "client" ? clientOAuthProviderView : serverOAuthProviderView);
const list = <Item>(items: Item[]) => ok({ items, is_paginated: false });
/** Whose connected account a token route reads: a client only its own. */
const tokenOwner = (auth: Auth, ctx: OpContext, userIdOrMe: string) =>
  targetUser(auth, ctx, userIdOrMe, "connected accounts", () => refusal("clientOwnConnectedAccountsOnly"));

export const oauthProviderRoutes: RouteTable = {
  listOAuthProviders: {
    handler: ({ auth, ctx, query }) => {
      const userId = listingOwner(auth, query.user_id);
      const accounts: OAuthAccountRecord[] =
        userId === undefined
          ? accountsOfProject(ctx, auth.project.id)
          : accountsOfUser(ctx, targetUser(auth, ctx, userId, WHAT).id);
      return list(accounts.map(viewFor(auth)));
    },
  },
  createOAuthProvider: {
    handler: ({ auth, ctx, body }) =>
      created(
        serverOAuthProviderView(
          createAccount(ctx, auth.project.id, { ...body, user_id: targetUser(auth, ctx, body.user_id, WHAT).id }),
        ),
      ),
  },
  getOAuthProvider: {
    handler: ({ auth, ctx, params }) =>
      ok(viewFor(auth)(requireAccount(ctx, linkOwner(auth, ctx, params.user_id, "read"), params.provider_id))),
  },
  updateOAuthProvider: {
    handler: ({ auth, ctx, params, body }) => {
      const account = requireAccount(ctx, linkOwner(auth, ctx, params.user_id, "update"), params.provider_id);
      return ok(viewFor(auth)(updateAccount(ctx, account, body)));
    },
  },
  deleteOAuthProvider: {
    handler: ({ auth, ctx, params }) => {
      deleteAccount(ctx, requireAccount(ctx, linkOwner(auth, ctx, params.user_id, "delete"), params.provider_id));
      return success();
    },
  },
  listConnectedAccounts: {
    handler: ({ auth, ctx, params }) => {
      const user = targetUser(auth, ctx, params.user_id, "connected accounts", () =>
        refusal("clientListOwnConnectedAccountsOnly"),
      );
      return list(
        accountsOfUser(ctx, user.id)
          .filter((a) => a.allowConnectedAccounts)
          .map(connectedAccountView),
      );
    },
  },
  connectedAccountToken: {
    handler: ({ auth, ctx, params, body }) =>
      created(
        connectedAccountAccessToken(
          ctx,
          tokenOwner(auth, ctx, params.user_id),
          params.provider_id,
          undefined,
          body?.scope,
        ),
      ),
  },
  connectedAccountTokenByAccount: {
    handler: ({ auth, ctx, params, body }) =>
      created(
        connectedAccountAccessToken(
          ctx,
          tokenOwner(auth, ctx, params.user_id),
          params.provider_id,
          params.provider_account_id,
          body?.scope,
        ),
      ),
  },
  // The deprecated form: upstream forwards it to the `me` route above, so it answers as that route does.
  legacyConnectedAccountToken: {
    handler: ({ auth, ctx, params, body }) =>
      created(connectedAccountAccessToken(ctx, tokenOwner(auth, ctx, "me"), params.provider_id, undefined, body.scope)),
  },
};
