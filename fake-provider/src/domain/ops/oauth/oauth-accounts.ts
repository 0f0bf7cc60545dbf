import type { ServerOAuthProviderCreate, ServerOAuthProviderUpdate } from "@authsim/sdk/contract";
import { randomBase32, uuid } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { UserRecord } from "../../store/records.ts";
import type { OAuthAccountRecord, OAuthGrantRecord } from "../../store/strong-auth-records.ts";
import { heldKey } from "./held-oauth-tokens.ts";
import type { OpContext } from "../context.ts";
import { oauthProvidersOf, requireEnabledProvider } from "./oauth-config.ts";
import { requireUser } from "../users/user-lookup.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * OAuth provider links (protocol.md §5.10; spec §3 "OAuth provider link") and connected accounts: what the links
 * allow, the scopes the mock identity provider granted, and the access tokens a connected account hands out.
 */

const grantKey = (projectId: string, providerConfigId: string, accountId: string) =>
  `${projectId}\u0000${providerConfigId}\u0000${accountId}`;

export function accountsOfUser(ctx: Pick<OpContext, "tables">, userId: string): OAuthAccountRecord[] {
  return [...ctx.tables.oauthAccounts.values()]
    .filter((a) => a.userId === userId)
    .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : 1));
}

export function accountsOfProject(ctx: Pick<OpContext, "tables">, projectId: string): OAuthAccountRecord[] {
  return [...ctx.tables.oauthAccounts.values()]
    .filter((a) => a.projectId === projectId)
    .sort((a, b) => a.createdAtMillis - b.createdAtMillis || (a.id < b.id ? -1 : 1));
}

/** The link that signs this provider account in, if any (at most one per project: the `signIn` index). */
export function signInAccountFor(
  ctx: OpContext,
  projectId: string,
  providerConfigId: string,
  accountId: string,
): OAuthAccountRecord | undefined {
  return ctx.tables.oauthAccounts.lookup("signIn", grantKey(projectId, providerConfigId, accountId));
}

/** Any link of this provider account in the project (sign-in or not). */
export function anyAccountFor(
  ctx: OpContext,
  projectId: string,
  providerConfigId: string,
  accountId: string,
): OAuthAccountRecord | undefined {
  return accountsOfProject(ctx, projectId).find(
    (a) => a.providerConfigId === providerConfigId && a.providerAccountId === accountId,
  );
}

function assertSignInFree(ctx: OpContext, account: OAuthAccountRecord): void {
  if (!account.allowSignIn) return;
  const holder = signInAccountFor(ctx, account.projectId, account.providerConfigId, account.providerAccountId);
  if (holder && holder.id !== account.id) throw knownError("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
}

export function saveAccount(ctx: OpContext, account: OAuthAccountRecord): OAuthAccountRecord {
  assertSignInFree(ctx, account);
  ctx.tables.oauthAccounts.set(account.id, account);
  return account;
}

export function newAccount(
  ctx: OpContext,
  user: UserRecord,
  fields: Pick<OAuthAccountRecord, "providerConfigId" | "providerAccountId" | "email"> &
    Partial<Pick<OAuthAccountRecord, "allowSignIn" | "allowConnectedAccounts">>,
): OAuthAccountRecord {
  return saveAccount(ctx, {
    id: uuid(ctx.random),
    projectId: user.projectId,
    userId: user.id,
    allowSignIn: true,
    allowConnectedAccounts: true,
    createdAtMillis: ctx.now,
    ...fields,
  });
}

export function requireAccount(ctx: OpContext, user: UserRecord, accountId: string): OAuthAccountRecord {
  const account = ctx.tables.oauthAccounts.get(accountId);
  // Upstream's CRUD answers a plain 404, naming the link and the user, for a missing link or one of another user.
  if (!account || account.userId !== user.id) throw refusal("oauthProviderUserFound", accountId, user.id);
  return account;
}

/**
 * What the CRUD (not a sign-in) checks before it writes a link, in upstream's order: one sign-in link per provider and
 * user, one link per provider, user and account id (plain 400s); then the sign-in index (saveAccount).
 */
function assertLinkAllowed(
  ctx: OpContext,
  link: {
    userId: string;
    providerConfigId: string;
    providerAccountId: string | undefined;
    allowSignIn: boolean | undefined;
  },
  exceptId?: string,
): void {
  const siblings = accountsOfUser(ctx, link.userId).filter(
    (a) => a.id !== exceptId && a.providerConfigId === link.providerConfigId,
  );
  if (link.allowSignIn === true && siblings.some((a) => a.allowSignIn)) throw refusal("sameProviderTypeSignEnabled");
  if (link.providerAccountId !== undefined && siblings.some((a) => a.providerAccountId === link.providerAccountId))
    throw refusal("sameProviderTypeSameAccount");
}

/** POST /oauth-providers (server): the provider must be enabled; a sign-in account id is unique per provider. */
export function createAccount(ctx: OpContext, projectId: string, body: ServerOAuthProviderCreate): OAuthAccountRecord {
  const user = requireUser(ctx, projectId, body.user_id);
  const project = ctx.tables.projects.get(projectId)!;
  if (!oauthProvidersOf(project).some((p) => p.id === body.provider_config_id))
    throw refusal("oauthProviderFoundConfigured", body.provider_config_id);
  assertLinkAllowed(ctx, {
    userId: user.id,
    providerConfigId: body.provider_config_id,
    providerAccountId: body.account_id,
    allowSignIn: body.allow_sign_in,
  });
  return newAccount(ctx, user, {
    providerConfigId: body.provider_config_id,
    providerAccountId: body.account_id,
    email: body.email ?? null,
    allowSignIn: body.allow_sign_in,
    allowConnectedAccounts: body.allow_connected_accounts,
  });
}

/** PATCH (client: the allow flags; server also email and account id). */
export function updateAccount(
  ctx: OpContext,
  account: OAuthAccountRecord,
  body: ServerOAuthProviderUpdate,
): OAuthAccountRecord {
  const next: OAuthAccountRecord = {
    ...account,
    ...(body.allow_sign_in !== undefined ? { allowSignIn: body.allow_sign_in } : {}),
    ...(body.allow_connected_accounts !== undefined ? { allowConnectedAccounts: body.allow_connected_accounts } : {}),
    ...(body.email !== undefined ? { email: body.email } : {}),
    ...(body.account_id !== undefined ? { providerAccountId: body.account_id } : {}),
  };
  assertLinkAllowed(
    ctx,
    {
      userId: account.userId,
      providerConfigId: account.providerConfigId,
      providerAccountId: body.account_id,
      allowSignIn: body.allow_sign_in,
    },
    account.id,
  );
  return saveAccount(ctx, next);
}

export function deleteAccount(ctx: OpContext, account: OAuthAccountRecord): void {
  ctx.tables.oauthAccounts.delete(account.id);
}

/** POST /users with `oauth_providers` (protocol.md §5.2): links made together with the user. */
export function createAccountsForNewUser(
  ctx: OpContext,
  user: UserRecord,
  providers: readonly { id: string; account_id: string; email: string | null }[],
): void {
  const project = ctx.tables.projects.get(user.projectId)!;
  for (const p of providers) {
    requireEnabledProvider(project, p.id);
    newAccount(ctx, user, { providerConfigId: p.id, providerAccountId: p.account_id, email: p.email });
  }
}

/** Records what the identity provider granted an account (the scopes later access tokens may carry). */
export function recordGrant(
  ctx: OpContext,
  projectId: string,
  providerConfigId: string,
  accountId: string,
  scopes: readonly string[],
): void {
  const key = grantKey(projectId, providerConfigId, accountId);
  const previous = ctx.tables.oauthGrants.get(key);
  const merged = [...new Set([...(previous?.scopes ?? []), ...scopes])].sort();
  const grant: OAuthGrantRecord = {
    projectId,
    providerConfigId,
    providerAccountId: accountId,
    scopes: merged,
    grantedAtMillis: ctx.now,
  };
  ctx.tables.oauthGrants.set(key, grant);
}

export const scopesOf = (scope: string | undefined | null): string[] =>
  (scope ?? "").split(/\s+/).filter((s) => s.length > 0);

/**
 * POST /connected-accounts/{user}/{provider}[/{account}]/access-token (protocol.md §5.10): a provider access token for
 * a link that allows connected accounts. Not connected → OAUTH_CONNECTION_NOT_CONNECTED_TO_USER; a scope the provider
 * never granted → OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE; shared keys hand out no tokens (spec §8), except the
 * mock OAuth server's while one is attached (upstream's development setup allows them).
 */
export function connectedAccountAccessToken(
  ctx: OpContext,
  user: UserRecord,
  providerConfigId: string,
  providerAccountId: string | undefined,
  scope: string | undefined,
): { access_token: string } {
  const project = ctx.tables.projects.get(user.projectId)!;
  const provider = oauthProvidersOf(project).find((p) => p.id === providerConfigId);
  if (!provider) throw knownError("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED");
  const candidates = accountsOfUser(ctx, user.id).filter(
    (a) =>
      a.providerConfigId === providerConfigId &&
      a.allowConnectedAccounts &&
      (providerAccountId === undefined || a.providerAccountId === providerAccountId),
  );
  if (candidates.length === 0) throw knownError("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER");
  const server = ctx.settings.mockOAuthServer;
  // Shared keys hand out tokens only where upstream's development setup allows them: with its mock OAuth server.
  if (provider.type === "shared" && !server)
    throw knownError("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS");
  const wanted = scopesOf(scope);
  if (provider.type === "shared" && server) {
    // The tokens the server issued at sign-in: one still working at the server, else a refresh (emulator/mock-oauth/tokens.ts).
    for (const a of candidates) {
      const token = server.tokens.accessTokenFor(heldKey(a.projectId, a.providerConfigId, a.providerAccountId), wanted);
      if (token !== null) return { access_token: token };
    }
    throw knownError("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
  }
  const account = candidates.find((a) => {
    const granted =
      ctx.tables.oauthGrants.get(grantKey(a.projectId, a.providerConfigId, a.providerAccountId))?.scopes ?? [];
    return wanted.every((s) => granted.includes(s));
  });
  if (!account) throw knownError("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE");
  // The mock identity provider's tokens are opaque; a fresh one per request, as a refresh would give.
  return { access_token: `mock_${providerConfigId}_at_${randomBase32(ctx.random, 160)}` };
}

/** Everything of strong auth that dies with a user: its OAuth links and its passkeys (called by deleteUser). */
export function deleteStrongAuthDataOf(ctx: OpContext, userId: string): void {
  for (const account of accountsOfUser(ctx, userId)) ctx.tables.oauthAccounts.delete(account.id);
  for (const passkey of [...ctx.tables.passkeys.values()])
    if (passkey.userId === userId) ctx.tables.passkeys.delete(passkey.credentialId);
}
