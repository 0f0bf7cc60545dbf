import { z } from "zod";
import {
  clientOAuthProviderUpdate,
  connectedAccountListParams,
  connectedAccountTokenBody,
  connectedAccountTokenByAccountParams,
  connectedAccountTokenParams,
  oauthProviderListQuery,
  oauthProviderParams,
  serverOAuthProviderCreate,
  serverOAuthProviderUpdate,
} from "@authsim/sdk/contract";
import type { Auth } from "../auth/parse-auth.ts";
import { knownError, StatusError } from "../../domain/errors/known-error.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import type { UserRecord } from "../../domain/store/records.ts";
import { resolveUserId } from "../../domain/ops/access.ts";
import { accountsOfProject, accountsOfUser, connectedAccountAccessToken, createAccount, deleteAccount, requireAccount, updateAccount } from "../../domain/ops/oauth-accounts.ts";
import type { OAuthAccountRecord } from "../../domain/store/strong-auth-records.ts";
import { clientOAuthProviderView, connectedAccountView, serverOAuthProviderView } from "../../domain/views/oauth-providers.ts";
import { created, noBody, ok, route, success, type AnyRouteSpec } from "./define.ts";
import { signedInUser, targetUser } from "./target-user.ts";

/** OAuth provider links and connected accounts (protocol.md §5.10; spec §7 "/oauth-providers", "/connected-accounts"). */
const WHAT = "OAuth providers";

/** The user of a link route; a client naming another user gets upstream's plain 403 for that verb. */
function linkOwner(auth: Auth, ctx: OpContext, userIdOrMe: string, verb: "read" | "update" | "delete"): UserRecord {
  if (auth.type === "client" && userIdOrMe !== "me" && auth.user && auth.user.id !== userIdOrMe) {
    throw new StatusError(403, `Client can only ${verb} OAuth providers for their own user.`);
  }
  return targetUser(auth, ctx, userIdOrMe, WHAT);
}

/**
 * Whose links a listing shows: a client must be signed in (CANNOT_GET_OWN_USER_WITHOUT_USER) and name itself (`me` or
 * its own id), else upstream's plain 403; server and admin may name anyone, or no one (every link of the project).
 */
function listingOwner(auth: Auth, userIdOrMe: string | undefined): string | undefined {
  if (auth.type !== "client") return userIdOrMe === "me" ? resolveUserId(auth, userIdOrMe) : userIdOrMe;
  if (!auth.user) throw knownError("CANNOT_GET_OWN_USER_WITHOUT_USER");
  const userId = userIdOrMe === "me" ? auth.user.id : userIdOrMe;
  if (userId !== auth.user.id) throw new StatusError(403, `Client can only list ${WHAT} for their own user.`);
  return userId;
}

const viewFor = (auth: Auth) => (auth.type === "client" ? clientOAuthProviderView : serverOAuthProviderView);
const list = (items: unknown[]) => ok({ items, is_paginated: false });

export const oauthProviderRoutes: Record<string, AnyRouteSpec> = {
  listOAuthProviders: route({
    query: oauthProviderListQuery,
    handler: ({ auth, ctx, query }) => {
      const userId = listingOwner(auth!, query.user_id);
      const accounts: OAuthAccountRecord[] = userId === undefined ? accountsOfProject(ctx, auth!.project.id) : accountsOfUser(ctx, targetUser(auth!, ctx, userId, WHAT).id);
      return list(accounts.map(viewFor(auth!)));
    },
  }),
  createOAuthProvider: route({
    body: serverOAuthProviderCreate,
    handler: ({ auth, ctx, body }) => created(serverOAuthProviderView(createAccount(ctx, auth!.project.id, { ...body, user_id: targetUser(auth!, ctx, body.user_id, WHAT).id }))),
  }),
  getOAuthProvider: route({
    params: oauthProviderParams,
    handler: ({ auth, ctx, params }) => ok(viewFor(auth!)(requireAccount(ctx, linkOwner(auth!, ctx, params.user_id, "read"), params.provider_id))),
  }),
  updateOAuthProvider: route({
    params: oauthProviderParams,
    body: (auth) => (auth?.type === "client" ? clientOAuthProviderUpdate : serverOAuthProviderUpdate),
    handler: ({ auth, ctx, params, body }) => {
      const account = requireAccount(ctx, linkOwner(auth!, ctx, params.user_id, "update"), params.provider_id);
      return ok(viewFor(auth!)(updateAccount(ctx, account, body)));
    },
  }),
  deleteOAuthProvider: route({
    params: oauthProviderParams,
    body: noBody,
    handler: ({ auth, ctx, params }) => {
      deleteAccount(ctx, requireAccount(ctx, linkOwner(auth!, ctx, params.user_id, "delete"), params.provider_id));
      return success();
    },
  }),
  listConnectedAccounts: route({
    params: connectedAccountListParams,
    handler: ({ auth, ctx, params }) => {
      const user = targetUser(auth!, ctx, params.user_id, "connected accounts", "Client can only list connected accounts for their own user.");
      return list(accountsOfUser(ctx, user.id).filter((a) => a.allowConnectedAccounts).map(connectedAccountView));
    },
  }),
  connectedAccountToken: route({
    params: connectedAccountTokenParams,
    body: z.union([z.undefined(), connectedAccountTokenBody]),
    handler: ({ auth, ctx, params, body }) => {
      const user = targetUser(auth!, ctx, params.user_id, "connected accounts", "Client can only access its own connected accounts");
      return created(connectedAccountAccessToken(ctx, user, params.provider_id, undefined, body?.scope));
    },
  }),
  connectedAccountTokenByAccount: route({
    params: connectedAccountTokenByAccountParams,
    body: z.union([z.undefined(), connectedAccountTokenBody]),
    handler: ({ auth, ctx, params, body }) => {
      const user = targetUser(auth!, ctx, params.user_id, "connected accounts", "Client can only access its own connected accounts");
      return created(connectedAccountAccessToken(ctx, user, params.provider_id, params.provider_account_id, body?.scope));
    },
  }),
  legacyConnectedAccountToken: route({
    params: z.strictObject({ provider_id: z.string() }),
    query: z.strictObject({ scope: z.string().optional() }),
    handler: ({ auth, ctx, params, query }) => ok(connectedAccountAccessToken(ctx, signedInUser(auth!), params.provider_id, undefined, query.scope)),
  }),
};
