import { describe, expect, it } from "vitest";
import type { ProjectConfigRecord } from "../../store/records.ts";
import {
  DEV,
  anonymousSignUp,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import {
  answerIdp,
  callback,
  codeAndState,
  codeGrant,
  oauthSignIn,
  pkcePair,
  startOAuth,
  withToken,
  type IdentityFields,
} from "../../../test-support/strong-auth.ts";

/** Linking, merging by email (oauth_account_merge_strategy) and anonymous upgrades (protocol.md §7.5, §7.8; spec §3, §8). */

async function setConfig(provider: TestProvider, config: Partial<ProjectConfigRecord>): Promise<void> {
  await provider.store.transact((tables) => {
    const project = tables.projects.get(DEV.id)!;
    tables.projects.set(project.id, { ...project, config: { ...project.config, ...config } });
  });
}

/** Runs the flow to the callback and answers the error code the browser is sent to (null on success). */
async function callbackErrorCode(
  provider: TestProvider,
  identity: IdentityFields,
  o: { type?: "link"; token?: string } = {},
): Promise<string | null> {
  const { challenge } = await pkcePair();
  const start = await startOAuth(provider, { challenge, ...o });
  const back = await callback(provider, await answerIdp(provider, start.location, identity), start.cookie);
  return new URL(back.headers.get("location")!).searchParams.get("errorCode");
}

async function verifiedUser(provider: TestProvider, email: string): Promise<string> {
  const body = {
    primary_email: email,
    primary_email_verified: true,
    primary_email_auth_enabled: true,
    password: "correct horse battery",
  };
  return (await expectJson<{ id: string }>(await api(provider, "/users", { headers: server(), json: body }), 201)).id;
}

async function meOf(
  provider: TestProvider,
  accessToken: string,
): Promise<{ id: string; primary_email: string | null; oauth_providers: unknown[]; is_anonymous: boolean }> {
  return expectJson(await api(provider, "/users/me", { headers: withToken(accessToken) }));
}

describe("merging by email", () => {
  it("link_method (the default) links a verified address's user and signs it in", async () => {
    const provider = newProvider();
    const id = await verifiedUser(provider, "merge@example.com");
    const tokens = await oauthSignIn(provider, { account_id: "gh-merge", email: "merge@example.com" });
    expect(tokens.is_new_user).toBe(false);
    expect(await meOf(provider, tokens.access_token)).toMatchObject({
      id,
      oauth_providers: [{ id: "github", account_id: "gh-merge", email: "merge@example.com" }],
    });
  });

  it("link_method refuses an unverified address with CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", async () => {
    const provider = newProvider();
    const user = await signUp(provider, { email: "unverified@example.com" });
    expect(user.user_id).toBeTruthy();
    expect(await callbackErrorCode(provider, { account_id: "gh-u", email: "unverified@example.com" })).toBe(
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
    );
  });

  it("raise_error refuses with CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE (409, details)", async () => {
    const provider = newProvider();
    await setConfig(provider, { oauth_account_merge_strategy: "raise_error" });
    await verifiedUser(provider, "raise@example.com");
    const { challenge } = await pkcePair();
    const start = await startOAuth(provider, { challenge });
    const back = await callback(
      provider,
      await answerIdp(provider, start.location, { account_id: "gh-r", email: "raise@example.com" }),
      start.cookie,
    );
    const params = new URL(back.headers.get("location")!).searchParams;
    expect(params.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE");
    expect(JSON.parse(params.get("details")!)).toEqual({
      type: "email",
      contact_channel_value: "raise@example.com",
      would_work_if_email_was_verified: false,
    });
  });

  it("says verifying would help only when the existing address is the unverified one", async () => {
    const provider = newProvider();
    await signUp(provider, { email: "old-unverified@example.com" });
    await verifiedUser(provider, "old-verified@example.com");
    const detailsOf = async (identity: IdentityFields) => {
      const { challenge } = await pkcePair();
      const start = await startOAuth(provider, { challenge });
      const back = await callback(provider, await answerIdp(provider, start.location, identity), start.cookie);
      const params = new URL(back.headers.get("location")!).searchParams;
      return [
        params.get("errorCode"),
        JSON.parse(params.get("details")!).would_work_if_email_was_verified,
        params.get("message"),
      ];
    };
    expect(await detailsOf({ account_id: "gh-w1", email: "old-unverified@example.com" })).toEqual([
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      true,
      expect.stringContaining("but the email is not verified"),
    ]);
    // raise_error never merges, verified or not: plain wording.
    await setConfig(provider, { oauth_account_merge_strategy: "raise_error" });
    expect(await detailsOf({ account_id: "gh-w2", email: "old-unverified@example.com" })).toEqual([
      "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      false,
      'This email "(old-unverified@example.com)" is already used for authentication by another account.',
    ]);
  });

  it("links an existing account by its verified address even with sign-ups turned off", async () => {
    const provider = newProvider();
    const id = await verifiedUser(provider, "existing@example.com");
    await setConfig(provider, { sign_up_enabled: false });
    const tokens = await oauthSignIn(provider, { account_id: "gh-existing", email: "existing@example.com" });
    expect([tokens.is_new_user, (await meOf(provider, tokens.access_token)).id]).toEqual([false, id]);
    expect(await callbackErrorCode(provider, { account_id: "gh-newcomer", email: "newcomer@example.com" })).toBe(
      "SIGN_UP_NOT_ENABLED",
    );
  });

  it("allow_duplicates makes a second user whose address is not used for sign-in", async () => {
    const provider = newProvider();
    await setConfig(provider, { oauth_account_merge_strategy: "allow_duplicates" });
    const first = await verifiedUser(provider, "dup@example.com");
    const tokens = await oauthSignIn(provider, { account_id: "gh-d", email: "dup@example.com" });
    expect(tokens.is_new_user).toBe(true);
    const me = await meOf(provider, tokens.access_token);
    expect(me.id).not.toBe(first);
    const server_ = await expectJson(await api(provider, `/users/${me.id}`, { headers: server() }));
    expect(server_).toMatchObject({ primary_email: "dup@example.com", primary_email_auth_enabled: false });
  });

  it("answers SIGN_UP_NOT_ENABLED for a new account when sign-up is closed, but signs existing links in", async () => {
    const provider = newProvider();
    await oauthSignIn(provider, { account_id: "gh-old" });
    await setConfig(provider, { sign_up_enabled: false });
    expect(await callbackErrorCode(provider, { account_id: "gh-new" })).toBe("SIGN_UP_NOT_ENABLED");
    expect((await oauthSignIn(provider, { account_id: "gh-old" })).is_new_user).toBe(false);
  });
});

describe("linking and upgrading", () => {
  it("links an account to the signed-in user (type link), which then signs in with it", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const linked = await oauthSignIn(
      provider,
      { account_id: "gh-link", email: "linked@example.com" },
      { type: "link", token: user.access_token },
    );
    expect(linked.is_new_user).toBe(false);
    expect((await meOf(provider, linked.access_token)).id).toBe(user.user_id);
    const signedIn = await oauthSignIn(provider, { account_id: "gh-link" });
    expect((await meOf(provider, signedIn.access_token)).id).toBe(user.user_id);
  });

  it("refuses a second account of the same provider: USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    await oauthSignIn(provider, { account_id: "gh-a" }, { type: "link", token: user.access_token });
    expect(await callbackErrorCode(provider, { account_id: "gh-b" }, { type: "link", token: user.access_token })).toBe(
      "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
    );
  });

  it("refuses an account linked to someone else: OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER", async () => {
    const provider = newProvider();
    await oauthSignIn(provider, { account_id: "gh-taken" });
    const user = await signUp(provider);
    expect(
      await callbackErrorCode(provider, { account_id: "gh-taken" }, { type: "link", token: user.access_token }),
    ).toBe("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER");
  });

  it("upgrades the anonymous user whose token started the sign-in", async () => {
    const provider = newProvider();
    const anonymous = await anonymousSignUp(provider);
    const tokens = await oauthSignIn(
      provider,
      { account_id: "gh-anon", email: "was-anon@example.com" },
      { token: anonymous.access_token },
    );
    expect(tokens.is_new_user).toBe(true);
    expect(await meOf(provider, tokens.access_token)).toMatchObject({
      id: anonymous.user_id,
      is_anonymous: false,
      primary_email: "was-anon@example.com",
    });
  });

  it("asks for MFA at the code exchange for a user with TOTP, and spends the code", async () => {
    const provider = newProvider();
    const first = await oauthSignIn(provider, { account_id: "gh-mfa" });
    await api(provider, "/users/me", {
      method: "PATCH",
      headers: withToken(first.access_token),
      json: { totp_secret_base64: "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=" },
    });
    const { verifier, challenge } = await pkcePair("mfa");
    const start = await startOAuth(provider, { challenge });
    const { code } = codeAndState(
      await callback(provider, await answerIdp(provider, start.location, { account_id: "gh-mfa" }), start.cookie),
    );
    const body = await expectKnownError(
      await codeGrant(provider, code, verifier),
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
      400,
    );
    expect(body.details?.attempt_code).toMatch(/^[0-9a-z]{45}$/);
    await expectKnownError(await codeGrant(provider, code, verifier), "INVALID_AUTHORIZATION_CODE", 400);
  });
});
