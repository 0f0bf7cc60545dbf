import { describe, expect, it } from "vitest";
import {
  DEV,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  tokenRequest,
} from "../../../test-support/api.ts";
import {
  APP_CALLBACK,
  APP_ERROR,
  answerIdp,
  callback,
  codeAndState,
  codeGrant,
  oauthSignIn,
  pkcePair,
  startOAuth,
  withToken,
} from "../../../test-support/strong-auth.ts";

/** OAuth through the mock identity provider, its end: the callback and the code exchange (protocol.md §4.4, §7.5; spec §8). */

describe("OAuth callback and code exchange", () => {
  it("signs a new user up: is_new_user, the identity's profile, the link in oauth_providers", async () => {
    const provider = newProvider();
    const tokens = await oauthSignIn(
      provider,
      { account_id: "gh-1", email: "octo@example.com", name: "Octo Cat" },
      { afterCallbackRedirectUrl: "http://localhost:3000/after" },
    );
    expect(tokens).toMatchObject({
      is_new_user: true,
      after_callback_redirect_url: "http://localhost:3000/after",
      token_type: "Bearer",
      scope: "legacy",
    });
    const me = await expectJson(await api(provider, "/users/me", { headers: withToken(tokens.access_token) }));
    expect(me).toMatchObject({
      primary_email: "octo@example.com",
      primary_email_verified: true,
      display_name: "Octo Cat",
      has_password: false,
      oauth_providers: [{ id: "github", account_id: "gh-1", email: "octo@example.com" }],
    });
    const again = await oauthSignIn(provider, { account_id: "gh-1", email: "octo@example.com" });
    expect(again.is_new_user).toBe(false);
    const meAgain = await expectJson<{ id: string }>(
      await api(provider, "/users/me", { headers: withToken(again.access_token) }),
    );
    expect(meAgain.id).toBe((me as { id: string }).id);
    expect(provider.unexpected).toEqual([]);
  });

  it("sends the code and the client's state to the redirect URI, keeping its query", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const start = await startOAuth(provider, { challenge, state: "s-123", redirectUri: `${APP_CALLBACK}?keep=1` });
    const back = await callback(
      provider,
      await answerIdp(provider, start.location, { account_id: "gh-2" }),
      start.cookie,
    );
    const { state, location } = codeAndState(back);
    expect(state).toBe("s-123");
    expect(location.searchParams.get("keep")).toBe("1");
    expect(back.headers.get("set-cookie")).toContain("=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT");
  });

  it("refuses a callback without the inner-state cookie (plain 400) and an unknown flow", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const start = await startOAuth(provider, { challenge });
    const to = await answerIdp(provider, start.location, { account_id: "gh-3" });
    const noCookie = await callback(provider, to, null);
    expect(noCookie.status).toBe(400);
    expect(await noCookie.text()).toMatch(/^Inner OAuth cookie not found/);
    const ok = await callback(provider, to, start.cookie);
    expect(ok.status).toBe(303);
    expect(await ok.json()).toEqual({});
    const replay = await callback(provider, to, start.cookie);
    expect(replay.status).toBe(400);
    expect(await replay.text()).toBe("Invalid OAuth state. Please try signing in again.");
  });

  it("sends a denial back to the app's redirect URI as OAUTH_PROVIDER_ACCESS_DENIED (errorCode, message, details)", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const start = await startOAuth(provider, { challenge });
    const back = await callback(provider, await answerIdp(provider, start.location, { action: "deny" }), start.cookie);
    expect(back.status).toBe(307);
    expect(back.headers.get("set-cookie")).toContain(
      `stack-oauth-inner-${start.innerState}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
    );
    const to = new URL(back.headers.get("location")!);
    expect(`${to.origin}${to.pathname}`).toBe(APP_CALLBACK);
    expect(Object.fromEntries(to.searchParams)).toEqual({
      error: "server_error",
      error_description: "The OAuth provider denied access to the user.",
      errorCode: "OAUTH_PROVIDER_ACCESS_DENIED",
      message: "The OAuth provider denied access to the user.",
      details: "{}",
    });
  });

  it("times the flow out after 3600 s by the clock: OUTER_OAUTH_TIMEOUT", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const start = await startOAuth(provider, { challenge });
    const to = await answerIdp(provider, start.location, { account_id: "gh-4" });
    provider.clock.advance(3_600_000);
    const back = await callback(provider, to, start.cookie);
    expect(new URL(back.headers.get("location")!).searchParams.get("errorCode")).toBe("OUTER_OAUTH_TIMEOUT");
  });

  it("answers the known error itself when neither the redirect URI nor the error URL is trusted (OUTER_OAUTH_TIMEOUT 408)", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const start = await startOAuth(provider, {
      challenge,
      redirectUri: "https://evil.example.net/cb",
      errorRedirectUrl: "https://evil.example.net/err",
    });
    const to = await answerIdp(provider, start.location, { account_id: "gh-5" });
    provider.clock.advance(3_600_001);
    const response = await callback(provider, to, start.cookie);
    await expectKnownError(response, "OUTER_OAUTH_TIMEOUT", 408);
    expect(response.headers.get("set-cookie")).toContain(
      `stack-oauth-inner-${start.innerState}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
    );
  });

  it("refuses an untrusted redirect URI at the callback: to a trusted error URL (307), else the known error itself", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const toError = await startOAuth(provider, { challenge, redirectUri: "https://localhost.evil.example.net/cb" });
    const redirected = await callback(
      provider,
      await answerIdp(provider, toError.location, { account_id: "gh-untrusted" }),
      toError.cookie,
    );
    expect(redirected.status).toBe(307);
    const to = new URL(redirected.headers.get("location")!);
    expect([`${to.origin}${to.pathname}`, to.searchParams.get("errorCode")]).toEqual([
      APP_ERROR,
      "REDIRECT_URL_NOT_WHITELISTED",
    ]);

    const nowhere = await startOAuth(provider, {
      challenge,
      redirectUri: "https://evil.example.net/cb",
      errorRedirectUrl: "https://evil.example.net/err",
    });
    const refused = await callback(
      provider,
      await answerIdp(provider, nowhere.location, { account_id: "gh-untrusted" }),
      nowhere.cookie,
    );
    await expectKnownError(refused, "REDIRECT_URL_NOT_WHITELISTED", 400);
    expect(refused.headers.get("set-cookie")).toContain(
      `stack-oauth-inner-${nowhere.innerState}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT`,
    );
    // Nobody was signed up by the refused flows.
    expect(provider.store.read.oauthAccounts.size).toBe(0);
  });

  it("refuses a wrong inner code, or one redeemed at another provider, with the plain invalid-grant 400", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    for (const forge of [
      (u: URL) => u.searchParams.set("code", "forged"),
      (u: URL) => (u.pathname = u.pathname.replace(/github$/, "google")),
    ]) {
      const start = await startOAuth(provider, { challenge });
      const to = new URL(await answerIdp(provider, start.location, { account_id: "gh-6" }));
      forge(to);
      const response = await callback(provider, to.toString(), start.cookie);
      expect([response.status, await response.text()]).toEqual([
        400,
        "Inner OAuth callback failed due to invalid grant. Please try again.",
      ]);
      expect(response.headers.get("set-cookie")).toContain("=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT");
    }
  });

  it("exchanges a code of a plain PKCE challenge for the verifier that equals it", async () => {
    const provider = newProvider();
    const start = await startOAuth(provider, {
      challenge: "some-code-challenge",
      extra: { code_challenge_method: "plain" },
    });
    const { code } = codeAndState(
      await callback(provider, await answerIdp(provider, start.location, { account_id: "gh-plain" }), start.cookie),
    );
    await expectKnownError(await codeGrant(provider, code, "another-verifier"), "INVALID_AUTHORIZATION_CODE", 400);
    expect(
      await expectJson<{ is_new_user: boolean }>(await codeGrant(provider, code, "some-code-challenge")),
    ).toMatchObject({ is_new_user: true });
  });

  it("exchanges a code once, with the same redirect URI and the matching PKCE verifier", async () => {
    const provider = newProvider();
    const { verifier, challenge } = await pkcePair("pkce");
    const start = await startOAuth(provider, { challenge });
    const { code } = codeAndState(
      await callback(provider, await answerIdp(provider, start.location, { account_id: "gh-7" }), start.cookie),
    );

    // The real token route answers the OAuth library's invalid grant (wrong or missing verifier) as INVALID_AUTHORIZATION_CODE.
    const otherVerifier = (await pkcePair("other")).verifier;
    await expectKnownError(await codeGrant(provider, code, otherVerifier), "INVALID_AUTHORIZATION_CODE", 400);
    const noVerifier = await tokenRequest(provider, {
      grant_type: "authorization_code",
      client_id: DEV.id,
      code,
      redirect_uri: APP_CALLBACK,
    });
    await expectKnownError(noVerifier, "INVALID_AUTHORIZATION_CODE", 400);
    const wrongUri = await codeGrant(provider, code, verifier, "http://localhost:3000/elsewhere");
    expect(wrongUri.status).toBe(400);
    expect(await wrongUri.text()).toBe(
      "Invalid redirect URI. Your redirect URI must be the same as the one used to get the authorization code.",
    );

    const tokens = await expectJson<{ refresh_token: string; newUser: boolean }>(
      await codeGrant(provider, code, verifier),
    );
    expect(tokens.newUser).toBe(true);
    await expectKnownError(await codeGrant(provider, code, verifier), "INVALID_AUTHORIZATION_CODE", 400);
    await expectKnownError(await codeGrant(provider, "never-issued", verifier), "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("expires unexchanged codes after five minutes", async () => {
    const provider = newProvider();
    const { verifier, challenge } = await pkcePair();
    const start = await startOAuth(provider, { challenge });
    const { code } = codeAndState(
      await callback(provider, await answerIdp(provider, start.location, { account_id: "gh-8" }), start.cookie),
    );
    provider.clock.advance(5 * 60_000);
    await expectKnownError(await codeGrant(provider, code, verifier), "INVALID_AUTHORIZATION_CODE", 400);
  });

  it("serves the identity provider's page as plain HTML with the form, and a 404 page for an unknown flow", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const start = await startOAuth(provider, { challenge });
    const url = new URL(start.location);
    const page = await request(provider, `${url.pathname}${url.search}`);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain('data-mock-idp="github"');
    expect(html).toContain('name="account_id"');
    expect(html).not.toMatch(/<script|https?:\/\/(?!localhost)/);
    expect(page.headers.get("set-cookie")).toContain(`stack-oauth-inner-${start.innerState}=true`);
    const missing = await request(provider, "/__emulator/oauth/authorize/github?state=nope");
    expect(missing.status).toBe(404);
  });
});
