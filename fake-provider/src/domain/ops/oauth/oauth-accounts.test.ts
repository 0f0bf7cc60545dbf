import { describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { oauthSignIn, withToken } from "../../../test-support/strong-auth.ts";

/** OAuth provider links and connected accounts (protocol.md §5.10; spec §7, §8 "OAuth"). */

interface Link {
  id: string;
  user_id: string;
  type: string;
  provider_config_id: string;
  account_id?: string;
  email?: string | null;
  allow_sign_in: boolean;
  allow_connected_accounts: boolean;
}

async function links(provider: TestProvider, accessToken: string): Promise<Link[]> {
  return (
    await expectJson<{ items: Link[] }>(
      await api(provider, "/oauth-providers?user_id=me", { headers: withToken(accessToken) }),
    )
  ).items;
}

describe("OAuth provider links", () => {
  it("lets a client list only its own links and connected accounts: another user's, or everyone's, is a plain 403", async () => {
    const provider = newProvider();
    const mine = await signUp(provider);
    const theirs = await signUp(provider);
    expect(await links(provider, mine.access_token)).toEqual([]);
    const ownById = await api(provider, `/oauth-providers?user_id=${mine.user_id}`, {
      headers: withToken(mine.access_token),
    });
    expect(ownById.status).toBe(200);
    for (const query of [`?user_id=${theirs.user_id}`, ""]) {
      const refused = await api(provider, `/oauth-providers${query}`, { headers: withToken(mine.access_token) });
      expect([refused.status, await refused.text()]).toEqual([
        403,
        "Client can only list OAuth providers for their own user.",
      ]);
    }
    // The server lists anyone's.
    expect((await api(provider, `/oauth-providers?user_id=${theirs.user_id}`, { headers: server() })).status).toBe(200);
    // Connected accounts: the listing and the tokens have their own words.
    const list = await api(provider, `/connected-accounts/${theirs.user_id}`, {
      headers: withToken(mine.access_token),
    });
    expect([list.status, await list.text()]).toEqual([
      403,
      "Client can only list connected accounts for their own user.",
    ]);
    const token = await api(provider, `/connected-accounts/${theirs.user_id}/google/access-token`, {
      headers: withToken(mine.access_token),
      json: { scope: "openid" },
    });
    expect([token.status, await token.text()]).toEqual([403, "Client can only access its own connected accounts"]);
  });

  it("lists the client's links without account_id; the server view adds it", async () => {
    const provider = newProvider();
    const tokens = await oauthSignIn(provider, { account_id: "gh-list", email: "list@example.com" });
    const [link] = await links(provider, tokens.access_token);
    expect(link).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: expect.any(String),
      email: "list@example.com",
      provider_config_id: "github",
      type: "github",
      allow_sign_in: true,
      allow_connected_accounts: true,
    });
    const serverView = await expectJson<Link>(
      await api(provider, `/oauth-providers/${link!.user_id}/${link!.id}`, { headers: server() }),
    );
    expect(serverView.account_id).toBe("gh-list");
  });

  it("updates the allow flags (client) and deletes a link; a client cannot name another user", async () => {
    const provider = newProvider();
    const tokens = await oauthSignIn(provider, { account_id: "gh-upd" });
    const [link] = await links(provider, tokens.access_token);
    const updated = await expectJson<Link>(
      await api(provider, `/oauth-providers/me/${link!.id}`, {
        method: "PATCH",
        headers: withToken(tokens.access_token),
        json: { allow_sign_in: false },
      }),
    );
    expect(updated.allow_sign_in).toBe(false);
    await expectKnownError(
      await api(provider, `/oauth-providers/me/${link!.id}`, {
        method: "PATCH",
        headers: withToken(tokens.access_token),
        json: { account_id: "x" },
      }),
      "SCHEMA_ERROR",
      400,
    );
    const other = await signUp(provider);
    const foreign = await api(provider, `/oauth-providers/${other.user_id}/${link!.id}`, {
      headers: withToken(tokens.access_token),
    });
    expect([foreign.status, await foreign.text()]).toEqual([
      403,
      "Client can only read OAuth providers for their own user.",
    ]);
    const foreignDelete = await api(provider, `/oauth-providers/${other.user_id}/${link!.id}`, {
      method: "DELETE",
      headers: withToken(tokens.access_token),
    });
    expect([foreignDelete.status, await foreignDelete.text()]).toEqual([
      403,
      "Client can only delete OAuth providers for their own user.",
    ]);
    expect(
      await expectJson(
        await api(provider, `/oauth-providers/me/${link!.id}`, {
          method: "DELETE",
          headers: withToken(tokens.access_token),
        }),
      ),
    ).toEqual({ success: true });
    expect(await links(provider, tokens.access_token)).toEqual([]);
  });

  it("server create: a second sign-in link of one account id is OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", async () => {
    const provider = newProvider();
    const a = await signUp(provider);
    const b = await signUp(provider);
    const body = (userId: string, allowSignIn: boolean) => ({
      user_id: userId,
      provider_config_id: "google",
      account_id: "g-shared",
      email: "g@example.com",
      allow_sign_in: allowSignIn,
      allow_connected_accounts: true,
    });
    const created = await expectJson<Link>(
      await api(provider, "/oauth-providers", { headers: server(), json: body(a.user_id, true) }),
      201,
    );
    expect(created).toMatchObject({ user_id: a.user_id, account_id: "g-shared", type: "google" });
    await expectKnownError(
      await api(provider, "/oauth-providers", { headers: server(), json: body(b.user_id, true) }),
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      400,
    );
    const connectedOnly = await expectJson<Link>(
      await api(provider, "/oauth-providers", { headers: server(), json: body(b.user_id, false) }),
      201,
    );
    await expectKnownError(
      await api(provider, `/oauth-providers/${b.user_id}/${connectedOnly.id}`, {
        method: "PATCH",
        headers: server(),
        json: { allow_sign_in: true },
      }),
      "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
      400,
    );
    const unknown = await api(provider, "/oauth-providers", {
      headers: server(),
      json: { ...body(b.user_id, false), provider_config_id: "facebook" },
    });
    expect([unknown.status, await unknown.text()]).toEqual([
      404,
      "OAuth provider facebook not found or not configured",
    ]);
    await expectKnownError(
      await api(provider, "/oauth-providers", { headers: withToken(a.access_token), json: body(a.user_id, false) }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });

  it("server create for `me`, one sign-in link per provider and user, one link per account id; a missing link is a plain 404", async () => {
    const provider = newProvider();
    const a = await signUp(provider);
    const link = (json: Record<string, unknown>) =>
      api(provider, "/oauth-providers", {
        headers: server({ accessToken: a.access_token }),
        json: { user_id: "me", provider_config_id: "google", email: null, allow_connected_accounts: true, ...json },
      });
    const first = await expectJson<Link>(await link({ account_id: "g-1", allow_sign_in: true }), 201);
    expect(first).toMatchObject({ user_id: a.user_id, provider_config_id: "google", account_id: "g-1" });
    const second = await link({ account_id: "g-2", allow_sign_in: true });
    expect([second.status, await second.text()]).toEqual([
      400,
      "The same provider type with sign-in enabled already exists for this user.",
    ]);
    const same = await link({ account_id: "g-1", allow_sign_in: false });
    expect([same.status, await same.text()]).toEqual([
      400,
      "The same provider type with the same account ID already exists for this user.",
    ]);
    const other = await expectJson<Link>(await link({ account_id: "g-2", allow_sign_in: false }), 201);
    const toggled = await api(provider, `/oauth-providers/${a.user_id}/${other.id}`, {
      method: "PATCH",
      headers: server(),
      json: { allow_sign_in: true },
    });
    expect([toggled.status, await toggled.text()]).toEqual([
      400,
      "The same provider type with sign-in enabled already exists for this user.",
    ]);
    const missing = "00000000-0000-4000-8000-000000000000";
    const read = await api(provider, `/oauth-providers/${a.user_id}/${missing}`, { headers: server() });
    expect([read.status, await read.text()]).toEqual([
      404,
      `OAuth provider ${missing} for user ${a.user_id} not found`,
    ]);
  });

  it("server create with POST /users {oauth_providers} links at creation", async () => {
    const provider = newProvider();
    const user = await expectJson<{ id: string; oauth_providers: unknown[] }>(
      await api(provider, "/users", {
        headers: server(),
        json: { oauth_providers: [{ id: "github", account_id: "gh-made", email: null }] },
      }),
      201,
    );
    expect(user.oauth_providers).toEqual([{ id: "github", account_id: "gh-made", email: null }]);
  });
});

describe("connected accounts", () => {
  it("lists links that allow connected accounts and hands out tokens for granted scopes (own keys)", async () => {
    const provider = newProvider();
    const tokens = await oauthSignIn(provider, { account_id: "g-1", scopes: "openid email" }, { provider: "google" });
    const me = withToken(tokens.access_token);
    const list = await expectJson<{ items: unknown[] }>(await api(provider, "/connected-accounts/me", { headers: me }));
    expect(list.items).toEqual([{ user_id: expect.any(String), provider: "google", provider_account_id: "g-1" }]);
    const token = await expectJson<{ access_token: string }>(
      await api(provider, "/connected-accounts/me/google/access-token", { headers: me, json: { scope: "email" } }),
      201,
    );
    expect(token.access_token).toMatch(/^mock_google_at_/);
    await expectJson(
      await api(provider, "/connected-accounts/me/google/g-1/access-token", { headers: me, json: {} }),
      201,
    );
    await expectKnownError(
      await api(provider, "/connected-accounts/me/google/access-token", { headers: me, json: { scope: "profile" } }),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );
    await expectKnownError(
      await api(provider, "/connected-accounts/me/google/g-2/access-token", { headers: me, json: {} }),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
      400,
    );
  });

  it("says not connected for a user without the link, and refuses tokens with shared keys", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    await expectKnownError(
      await api(provider, "/connected-accounts/me/google/access-token", {
        headers: withToken(user.access_token),
        json: {},
      }),
      "OAUTH_CONNECTION_NOT_CONNECTED_TO_USER",
      400,
    );
    const gh = await oauthSignIn(provider, { account_id: "gh-shared" });
    await expectKnownError(
      await api(provider, "/connected-accounts/me/github/access-token", {
        headers: withToken(gh.access_token),
        json: {},
      }),
      "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
      400,
    );
  });

  it("answers the deprecated POST /auth/oauth/connected-accounts/:provider as the `me` route: 201, its errors, a body required", async () => {
    const provider = newProvider();
    const tokens = await oauthSignIn(
      provider,
      { account_id: "g-legacy", scopes: "openid email" },
      { provider: "google" },
    );
    const me = withToken(tokens.access_token);
    const token = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/oauth/connected-accounts/google/access-token", {
        headers: me,
        json: { scope: "email" },
      }),
      201,
    );
    expect(token.access_token).toMatch(/^mock_google_at_/);
    await expectKnownError(
      await api(provider, "/auth/oauth/connected-accounts/google/access-token", {
        headers: me,
        json: { scope: "profile" },
      }),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );
    await expectKnownError(
      await api(provider, "/auth/oauth/connected-accounts/google/access-token", { headers: client(), json: {} }),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
      400,
    );
    await expectKnownError(
      await api(provider, "/auth/oauth/connected-accounts/google/access-token", { headers: me, json: { scope: 1 } }),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(
      await api(provider, "/auth/oauth/connected-accounts/google/access-token", { headers: me, method: "POST" }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("lets a server read any user's connected-account token", async () => {
    const provider = newProvider();
    const tokens = await oauthSignIn(provider, { account_id: "g-srv" }, { provider: "google" });
    const me = await expectJson<{ id: string }>(
      await api(provider, "/users/me", { headers: withToken(tokens.access_token) }),
    );
    await expectJson(
      await api(provider, `/connected-accounts/${me.id}/google/access-token`, {
        headers: server(),
        json: { scope: "openid" },
      }),
      201,
    );
  });
});
