import { describe, expect, it } from "vitest";
import { api, expectJson, expectKnownError, newProvider, signUp } from "../../../test-support/api.ts";
import { answerIdp, authorizePath, callback, codeAndState, pkcePair } from "../../../test-support/strong-auth.ts";

/** OAuth through the mock identity provider, its start: authorize (protocol.md §4.4, §7.5; spec §8 "OAuth"). */

describe("OAuth authorize", () => {
  it("redirects (307) to the mock identity provider and sets the inner-state cookie for 3600 s, as upstream words it", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const response = await api(provider, authorizePath({ challenge }));
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("http://localhost:8102/__emulator/oauth/authorize/github");
    const innerState = location.searchParams.get("state")!;
    const expires = new Date(provider.clock.now() + 3_600_000).toUTCString();
    expect(response.headers.get("set-cookie")).toBe(
      `stack-oauth-inner-${innerState}=true; Path=/; Expires=${expires}; Max-Age=3600; HttpOnly`,
    );
  });

  it("answers 200 {location} in JSON mode, without a cookie: the callback of such a flow needs none", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    for (const mode of ["stack_response_mode", "hexclave_response_mode", "response_mode"]) {
      const response = await api(provider, authorizePath({ challenge, extra: { [mode]: "json" } }));
      const body = await expectJson<{ location: string }>(response);
      expect(body.location).toMatch(/^http:\/\/localhost:8102\/__emulator\/oauth\/authorize\/github\?state=/);
      expect(response.headers.get("set-cookie")).toBeNull();
      const back = await callback(
        provider,
        await answerIdp(provider, body.location, { account_id: `gh-json-${mode}` }),
        null,
      );
      expect(codeAndState(back).state).toBe("outer-state");
    }
  });

  it("refuses a provider that is not enabled with OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", async () => {
    const { challenge } = await pkcePair();
    await expectKnownError(
      await api(newProvider(), authorizePath({ challenge, provider: "facebook" })),
      "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
      400,
    );
  });

  it("refuses an untrusted after-callback URL up front, and lets untrusted redirect and error URLs start the flow", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    await expectKnownError(
      await api(provider, authorizePath({ challenge, afterCallbackRedirectUrl: "https://evil.example.net/x" })),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    for (const o of [
      { redirectUri: "https://evil.example.net/cb" },
      { errorRedirectUrl: "https://evil.example.net/err" },
    ]) {
      expect((await api(provider, authorizePath({ challenge, ...o }))).status).toBe(307);
    }
    // A native app's SDK callback needs no trusted domain.
    expect(
      (
        await api(
          provider,
          authorizePath({ challenge, afterCallbackRedirectUrl: "stack-auth-mobile-oauth-url://done" }),
        )
      ).status,
    ).toBe(307);
  });

  it("words a redirect URI with spaces twice, as the real schema does", async () => {
    const { challenge } = await pkcePair();
    const path = authorizePath({ challenge }).replace(/redirect_uri=[^&]*/, "redirect_uri=not+a+url");
    const body = await expectKnownError(await api(newProvider(), path), "SCHEMA_ERROR", 400);
    expect(body.error).toContain("  - query.redirect_uri contains spaces\n  - query.redirect_uri is not a valid URL");
  });

  it("checks the client: unknown project, wrong publishable key, scope other than legacy", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const body = await expectKnownError(
      await api(provider, authorizePath({ challenge, extra: { client_id: "nope" } })),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      400,
    );
    expect(body.details).toEqual({ client_id: "nope" });
    await expectKnownError(
      await api(provider, authorizePath({ challenge, extra: { client_secret: "wrong" } })),
      "INVALID_PUBLISHABLE_CLIENT_KEY",
      401,
    );
    const scope = await expectKnownError(
      await api(provider, authorizePath({ challenge, extra: { scope: "openid" } })),
      "INVALID_SCOPE",
      400,
    );
    expect(scope.error).toBe('The scope "openid" is not a valid OAuth scope for Stack.');
  });

  it("takes any challenge with S256 or plain, and refuses another method with the OAuth library's plain 400", async () => {
    const provider = newProvider();
    expect(
      (await api(provider, authorizePath({ challenge: "short", extra: { code_challenge_method: "plain" } }))).status,
    ).toBe(307);
    const other = await api(provider, authorizePath({ challenge: "short", extra: { code_challenge_method: "S512" } }));
    expect(other.status).toBe(400);
    expect(await other.text()).toBe("Invalid request: transform algorithm 'S512' not supported");
  });

  it("judges the client, its key, the redirect URL and extra scopes before the PKCE fields, as the real service does", async () => {
    const provider = newProvider();
    const bad = { code_challenge: "", code_challenge_method: "none", response_type: "token" };
    await expectKnownError(
      await api(provider, authorizePath({ challenge: "x", extra: { ...bad, client_id: "nope" } })),
      "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
      400,
    );
    await expectKnownError(
      await api(provider, authorizePath({ challenge: "x", extra: { ...bad, client_secret: "pck_wrong" } })),
      "INVALID_PUBLISHABLE_CLIENT_KEY",
      401,
    );
    await expectKnownError(
      await api(
        provider,
        authorizePath({ challenge: "x", afterCallbackRedirectUrl: "https://evil.example.net/x", extra: bad }),
      ),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
    await expectKnownError(
      await api(provider, authorizePath({ challenge: "x", providerScope: "repo", extra: bad })),
      "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
      400,
    );
  });

  it("accepts the bot-challenge fields and checks only their shape", async () => {
    const provider = newProvider();
    const fields = { bot_challenge_token: "any-token", bot_challenge_phase: "invisible" };
    expect(
      (await api(provider, authorizePath({ challenge: "x", extra: { ...fields, code_challenge_method: "plain" } })))
        .status,
    ).toBe(307);
    const wrongPhase = await api(
      provider,
      authorizePath({ challenge: "x", extra: { bot_challenge_phase: "later", code_challenge_method: "plain" } }),
    );
    expect((await expectKnownError(wrongPhase, "SCHEMA_ERROR", 400)).error).toContain("query.bot_challenge_phase");
  });

  it("needs a token to link (plain 400), and refuses extra scopes with shared keys", async () => {
    const provider = newProvider();
    const { challenge } = await pkcePair();
    const noToken = await api(provider, authorizePath({ challenge, type: "link" }));
    expect(noToken.status).toBe(400);
    expect(await noToken.text()).toBe("?token= query parameter is required for link type");
    const user = await signUp(provider);
    await expectKnownError(
      await api(provider, authorizePath({ challenge, type: "link", token: user.access_token, providerScope: "repo" })),
      "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
      400,
    );
  });
});
