import { describe, expect, it } from "vitest";
import {
  api,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  tokenRequest,
  DEV,
  type TestProvider,
} from "../../test-support/api.ts";
import {
  APP_CALLBACK,
  authorizePath,
  callback,
  codeAndState,
  pkcePair,
  withToken,
} from "../../test-support/strong-auth.ts";
import { createMockOAuthServer, type MockOAuthServer } from "./server.ts";

/**
 * The mock OAuth server for shared-keys providers (the dev project's github is one), driven the way the real
 * service's e2e helpers drive theirs: authorize → /auth → login interaction → consent interaction → the callback.
 */

const ORIGIN = "http://localhost:8114";

function setUp(): { provider: TestProvider; mock: MockOAuthServer } {
  const provider = newProvider();
  return { provider, mock: createMockOAuthServer(provider, { origin: ORIGIN }) };
}

/** A cookie jar as the helpers keep one: every Set-Cookie's name=value, whatever its path. */
function jar(cookies: string, response: Response): string {
  const map = new Map(
    cookies
      .split("; ")
      .filter(Boolean)
      .map((c) => c.split("=") as [string, string]),
  );
  for (const line of response.headers.getSetCookie()) {
    const [name, value] = line.split(";")[0]!.split("=") as [string, string];
    map.set(name, value);
  }
  return [...map].map(([k, v]) => `${k}=${v}`).join("; ");
}

async function mockFetch(
  mock: MockOAuthServer,
  url: string,
  init: RequestInit & { cookie?: string; form?: Record<string, string> } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (init.cookie) headers.set("cookie", init.cookie);
  if (init.form) headers.set("content-type", "application/x-www-form-urlencoded");
  return mock.fetch(
    new Request(new URL(url, ORIGIN), {
      ...init,
      headers,
      ...(init.form ? { method: "POST", body: new URLSearchParams(init.form).toString() } : {}),
    }),
  );
}

/** Walks the mock server from its authorize URL to the provider callback URL it sends the browser to. */
async function signInAtMock(mock: MockOAuthServer, authorizeUrl: string, login: string): Promise<string> {
  const first = await mockFetch(mock, authorizeUrl);
  expect(first.status).toBe(303);
  expect(first.headers.get("content-type")).toMatch(/^text\/html/);
  let cookies = jar("", first);
  const loginPost = await mockFetch(mock, first.headers.get("location")!, {
    cookie: cookies,
    form: { prompt: "login", login, password: "anything" },
  });
  expect(loginPost.status).toBe(303);
  expect(loginPost.headers.get("content-type")).not.toMatch(/^text\/|json/);
  cookies = jar(cookies, loginPost);
  const resume = await mockFetch(mock, loginPost.headers.get("location")!, { cookie: cookies });
  expect(resume.status).toBe(303);
  cookies = jar(cookies, resume);
  const consent = await mockFetch(mock, resume.headers.get("location")!, {
    cookie: cookies,
    form: { prompt: "consent" },
  });
  expect(consent.status).toBe(303);
  cookies = jar(cookies, consent);
  const back = await mockFetch(mock, consent.headers.get("location")!, { cookie: cookies });
  expect(back.status).toBe(303);
  return back.headers.get("location")!;
}

async function oauthUser(
  provider: TestProvider,
  mock: MockOAuthServer,
  login: string,
): Promise<{ accessToken: string }> {
  const { verifier, challenge } = await pkcePair();
  const authorize = await api(provider, authorizePath({ challenge }));
  expect(authorize.status).toBe(307);
  const innerCookie = authorize.headers.get("set-cookie")!.split(";")[0]!;
  const callbackUrl = await signInAtMock(mock, authorize.headers.get("location")!, login);
  const back = await callback(provider, callbackUrl, innerCookie);
  const { code } = codeAndState(back);
  const tokens = await expectJson<{ access_token: string }>(
    await tokenRequest(provider, {
      grant_type: "authorization_code",
      client_id: DEV.id,
      client_secret: DEV.keys.publishable_client_key,
      code,
      redirect_uri: APP_CALLBACK,
      code_verifier: verifier,
    }),
  );
  return { accessToken: tokens.access_token };
}

const githubToken = (provider: TestProvider, accessToken: string) =>
  api(provider, "/connected-accounts/me/github/access-token", {
    headers: withToken(accessToken),
    json: { scope: "openid" },
  });

describe("mock OAuth server", () => {
  it("sends shared-keys providers' authorize to /auth with OpenID scopes, S256 PKCE and the callback on localhost", async () => {
    const { provider } = setUp();
    const { challenge } = await pkcePair();
    const response = await api(provider, authorizePath({ challenge }));
    const location = new URL(response.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/auth`);
    expect([...location.searchParams.keys()]).toEqual([
      "client_id",
      "scope",
      "response_type",
      "redirect_uri",
      "code_challenge_method",
      "code_challenge",
      "state",
      "access_type",
      "prompt",
    ]);
    expect(location.searchParams.get("client_id")).toBe("github");
    expect(location.searchParams.get("scope")).toBe("openid offline_access");
    expect(location.searchParams.get("redirect_uri")).toBe("http://localhost:8102/api/v1/auth/oauth/callback/github");
    expect(response.headers.get("set-cookie")).toMatch(
      /^stack-oauth-inner-[^;]+=true; Path=\/; Expires=[^;]+; Max-Age=3600; HttpOnly$/,
    );
    // A provider with the project's own keys keeps the emulator's page.
    const own = await api(provider, authorizePath({ challenge, provider: "google" }));
    expect(own.headers.get("location")).toMatch(
      /^http:\/\/localhost:8102\/__emulator\/oauth\/authorize\/google\?state=/,
    );
  });

  it("signs in the account the login form names: id and email are the login, the email verified", async () => {
    const { provider, mock } = setUp();
    const { accessToken } = await oauthUser(provider, mock, "octo@example.com");
    const me = await expectJson<{
      primary_email: string;
      primary_email_verified: boolean;
      oauth_providers: { id: string; account_id: string; email: string }[];
    }>(await api(provider, "/users/me", { headers: withToken(accessToken) }));
    expect(me).toMatchObject({ primary_email: "octo@example.com", primary_email_verified: true });
    expect(me.oauth_providers).toEqual([{ id: "github", account_id: "octo@example.com", email: "octo@example.com" }]);
    expect(provider.unexpected).toEqual([]);
  });

  it("hands out its tokens for connected accounts: userinfo works, a revoked token is replaced by a refresh", async () => {
    const { provider, mock } = setUp();
    const { accessToken } = await oauthUser(provider, mock, "conn@example.com");
    const first = await expectJson<{ access_token: string }>(await githubToken(provider, accessToken), 201);
    const info = await mockFetch(mock, "/me", { headers: { authorization: `Bearer ${first.access_token}` } });
    expect(await info.json()).toEqual({ sub: "conn@example.com" });
    expect(info.headers.get("x-powered-by")).toBe("Express");
    // The same token while it works.
    expect(
      (await expectJson<{ access_token: string }>(await githubToken(provider, accessToken), 201)).access_token,
    ).toBe(first.access_token);

    const revoked = await mockFetch(mock, "/revoke-access-token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: first.access_token }),
    });
    expect(await revoked.json()).toEqual({ success: true, message: "Access token has been revoked" });
    expect((await mockFetch(mock, "/me", { headers: { authorization: `Bearer ${first.access_token}` } })).status).toBe(
      401,
    );
    const second = await expectJson<{ access_token: string }>(await githubToken(provider, accessToken), 201);
    expect(second.access_token).not.toBe(first.access_token);
    expect((await mockFetch(mock, "/me", { headers: { authorization: `Bearer ${second.access_token}` } })).status).toBe(
      200,
    );

    // A scope the sign-in did not grant.
    await expectKnownError(
      await api(provider, "/connected-accounts/me/github/access-token", {
        headers: withToken(accessToken),
        json: { scope: "repo" },
      }),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );
  });

  it("asks for a new sign-in once the grant is revoked or a refresh fails", async () => {
    const { provider, mock } = setUp();
    const a = await oauthUser(provider, mock, "revoke@example.com");
    const token = (await expectJson<{ access_token: string }>(await githubToken(provider, a.accessToken), 201))
      .access_token;
    const json = { "content-type": "application/json" };
    expect(
      (
        await mockFetch(mock, "/revoke-refresh-token", {
          method: "POST",
          headers: json,
          body: JSON.stringify({ token }),
        })
      ).status,
    ).toBe(200);
    await expectKnownError(
      await githubToken(provider, a.accessToken),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );

    const b = await oauthUser(provider, mock, "simulate@example.com");
    const tokenB = (await expectJson<{ access_token: string }>(await githubToken(provider, b.accessToken), 201))
      .access_token;
    const armed = await mockFetch(mock, "/simulate-refresh-error", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ token: tokenB, error_type: "consent_required" }),
    });
    expect(armed.status).toBe(200);
    const unknownType = await mockFetch(mock, "/simulate-refresh-error", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ token: tokenB, error_type: "nope" }),
    });
    expect(unknownType.status).toBe(400);
    await mockFetch(mock, "/revoke-access-token", {
      method: "POST",
      headers: json,
      body: JSON.stringify({ token: tokenB }),
    });
    await expectKnownError(
      await githubToken(provider, b.accessToken),
      "OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE",
      400,
    );
  });

  it("refuses an unknown flow, a foreign redirect URI and a step without its cookie; shows the login page", async () => {
    const { provider, mock } = setUp();
    const { challenge } = await pkcePair();
    const authorizeUrl = new URL((await api(provider, authorizePath({ challenge }))).headers.get("location")!);
    const foreign = new URL(authorizeUrl);
    foreign.searchParams.set("redirect_uri", "https://evil.example.net/api/v1/auth/oauth/callback/github");
    expect((await mockFetch(mock, foreign.toString())).status).toBe(400);
    const unknown = new URL(authorizeUrl);
    unknown.searchParams.set("state", "no-such-flow");
    expect((await mockFetch(mock, unknown.toString())).status).toBe(404);

    const first = await mockFetch(mock, authorizeUrl.toString());
    const interaction = first.headers.get("location")!;
    expect((await mockFetch(mock, interaction)).status).toBe(400);
    const page = await mockFetch(mock, interaction, { cookie: jar("", first) });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('name="login"');
    expect(html).not.toMatch(/<script|https?:\/\/(?!localhost)/);
  });

  it("sends a cancelled sign-in back as access_denied, which the callback turns into OAUTH_PROVIDER_ACCESS_DENIED", async () => {
    const { provider, mock } = setUp();
    const { challenge } = await pkcePair();
    const authorize = await api(provider, authorizePath({ challenge }));
    const first = await mockFetch(mock, authorize.headers.get("location")!);
    const cookies = jar("", first);
    const abort = await mockFetch(mock, `${first.headers.get("location")!}/abort`, { cookie: cookies });
    const back = await mockFetch(mock, abort.headers.get("location")!, { cookie: jar(cookies, abort) });
    const callbackUrl = new URL(back.headers.get("location")!);
    expect(callbackUrl.searchParams.get("error")).toBe("access_denied");
    expect(callbackUrl.searchParams.get("iss")).toBe(ORIGIN);
    const answer = await callback(
      provider,
      callbackUrl.toString(),
      authorize.headers.get("set-cookie")!.split(";")[0]!,
    );
    expect(answer.status).toBe(307);
    expect(new URL(answer.headers.get("location")!).searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_ACCESS_DENIED");
  });

  it("detaches: shared keys go back to the emulator's page and hand out no tokens", async () => {
    const { provider, mock } = setUp();
    mock.detach();
    const { challenge } = await pkcePair();
    expect((await api(provider, authorizePath({ challenge }))).headers.get("location")).toMatch(
      /\/__emulator\/oauth\/authorize\/github\?/,
    );
    expect(await (await request(provider, "/health")).json()).toEqual({ status: "ok" });
  });
});
