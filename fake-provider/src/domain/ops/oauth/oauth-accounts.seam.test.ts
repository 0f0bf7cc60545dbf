import { describe, expect, it } from "vitest";
import type { ServerOAuthProviderCreate } from "@authsim/sdk/contract";
import { opSeam, type OpSeam, type Refusal } from "../../../test-support/op-seam.ts";
import type { UserRecord } from "../../store/records.ts";
import {
  accountsOfUser,
  connectedAccountAccessToken,
  createAccount,
  createAccountsForNewUser,
  deleteAccount,
  recordGrant,
  requireAccount,
  updateAccount,
} from "./oauth-accounts.ts";
import { deleteUser } from "../users/users.ts";

/**
 * OAuth provider links and connected accounts (protocol.md §5.10; spec §3 "OAuth provider link"), at the ops' seam.
 * The dev project has github on shared keys and google on its own (domain/ops/oauth/oauth-config.ts defaultOAuthProviders).
 */

const link = (user: UserRecord, extra: Partial<ServerOAuthProviderCreate> = {}): ServerOAuthProviderCreate => ({
  user_id: user.id,
  provider_config_id: "google",
  account_id: "google-1",
  email: "linked@example.com",
  allow_sign_in: true,
  allow_connected_accounts: true,
  ...extra,
});
const create = (seam: OpSeam, body: ServerOAuthProviderCreate) =>
  seam.ok((ctx) => createAccount(ctx, seam.project().id, body));
const refusesCreate = <C extends Refusal>(seam: OpSeam, body: ServerOAuthProviderCreate, code: C) =>
  seam.refuses((ctx) => createAccount(ctx, seam.project().id, body), code);

describe("createAccount", () => {
  it("links a provider account to a user of the project", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const account = await create(seam, link(user));
    expect(account).toMatchObject({
      userId: user.id,
      providerConfigId: "google",
      providerAccountId: "google-1",
      email: "linked@example.com",
      allowSignIn: true,
      allowConnectedAccounts: true,
    });
    expect(accountsOfUser(seam, user.id)).toEqual([account]);
  });

  it("refuses an unknown user, a provider the project does not have, and a second link breaking upstream's rules", async () => {
    const seam = opSeam();
    const [user, other] = [await seam.addUser(), await seam.addUser()];
    await create(seam, link(user));
    await refusesCreate(seam, link(user, { user_id: "7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f" }), "USER_NOT_FOUND");
    expect((await refusesCreate(seam, link(user, { provider_config_id: "facebook" }), 404)).message).toBe(
      "OAuth provider facebook not found or not configured",
    );
    expect((await refusesCreate(seam, link(user, { account_id: "google-2" }), 400)).message).toBe(
      "The same provider type with sign-in enabled already exists for this user.",
    );
    expect((await refusesCreate(seam, link(user, { allow_sign_in: false }), 400)).message).toBe(
      "The same provider type with the same account ID already exists for this user.",
    );
    await refusesCreate(seam, link(other), "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
    // Without sign-in, another user may hold a link to the same provider account.
    expect((await create(seam, link(other, { allow_sign_in: false }))).userId).toBe(other.id);
  });
});

describe("requireAccount, updateAccount, deleteAccount", () => {
  it("finds only the user's own link (upstream's plain 404 otherwise), updates and deletes it", async () => {
    const seam = opSeam();
    const [user, other] = [await seam.addUser(), await seam.addUser()];
    const account = await create(seam, link(user));
    expect((await seam.refuses((ctx) => requireAccount(ctx, other, account.id), 404)).message).toBe(
      `OAuth provider ${account.id} for user ${other.id} not found`,
    );
    const updated = await seam.ok((ctx) =>
      updateAccount(ctx, requireAccount(ctx, user, account.id), { allow_connected_accounts: false, email: null }),
    );
    expect(updated).toMatchObject({ allowConnectedAccounts: false, email: null, allowSignIn: true });
    await seam.ok((ctx) => deleteAccount(ctx, requireAccount(ctx, user, account.id)));
    expect(accountsOfUser(seam, user.id)).toEqual([]);
  });

  it("refuses an update that would take another user's sign-in account id", async () => {
    const seam = opSeam();
    const [user, other] = [await seam.addUser(), await seam.addUser()];
    await create(seam, link(user));
    const theirs = await create(seam, link(other, { account_id: "google-2" }));
    await seam.refuses(
      (ctx) => updateAccount(ctx, theirs, { account_id: "google-1" }),
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
    );
  });
});

describe("createAccountsForNewUser and deleting the user", () => {
  it("links accounts made with the user, refuses a provider not enabled, and drops the links with the user", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await seam.ok((ctx) => createAccountsForNewUser(ctx, user, [{ id: "github", account_id: "gh-1", email: null }]));
    expect(accountsOfUser(seam, user.id).map((a) => [a.providerConfigId, a.providerAccountId])).toEqual([
      ["github", "gh-1"],
    ]);
    await seam.refuses(
      (ctx) => createAccountsForNewUser(ctx, user, [{ id: "facebook", account_id: "fb-1", email: null }]),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    );
    await seam.ok((ctx) => deleteUser(ctx, ctx.tables.users.get(user.id)!));
    expect(seam.tables.oauthAccounts.size).toBe(0);
  });
});

describe("connectedAccountAccessToken", () => {
  it("hands out a token for a link with connected accounts, within the scopes the provider granted", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await create(seam, link(user));
    await seam.ok((ctx) => recordGrant(ctx, user.projectId, "google", "google-1", ["openid", "email"]));
    const token = await seam.ok((ctx) => connectedAccountAccessToken(ctx, user, "google", undefined, "email"));
    expect(token.access_token).toMatch(/^mock_google_at_/);
    expect(
      (await seam.ok((ctx) => connectedAccountAccessToken(ctx, user, "google", "google-1", undefined))).access_token,
    ).not.toBe(token.access_token);
    await seam.refuses(
      (ctx) => connectedAccountAccessToken(ctx, user, "google", undefined, "email drive"),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
    );
  });

  it("refuses a provider the project lacks, a user without such a link, and shared keys (no mock OAuth server attached)", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await seam.refuses(
      (ctx) => connectedAccountAccessToken(ctx, user, "facebook", undefined, undefined),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    );
    await seam.refuses(
      (ctx) => connectedAccountAccessToken(ctx, user, "google", undefined, undefined),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    );
    await create(seam, link(user, { allow_connected_accounts: false }));
    await seam.refuses(
      (ctx) => connectedAccountAccessToken(ctx, user, "google", undefined, undefined),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
    );
    await create(seam, link(user, { provider_config_id: "github", account_id: "gh-1" }));
    await seam.refuses(
      (ctx) => connectedAccountAccessToken(ctx, user, "github", undefined, undefined),
      "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    );
  });
});
