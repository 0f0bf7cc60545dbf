import { expect } from "vitest";
import { base64url } from "jose";
import { oauthInnerStateCookie } from "@authsim/sdk/contract";
import { controlClient } from "@authsim/sdk/emulator";
import { s256Challenge } from "../domain/ops/oauth/oauth-token.ts";
import { DEV, ORIGIN, api, client, expectJson, request, tokenRequest, type Fields, type TestProvider } from "./api.ts";

/**
 * Helpers for the strong-auth tests: a PKCE pair, the OAuth flow driven over HTTP (authorize → the mock identity
 * provider's form → callback → token endpoint) with the inner-state cookie carried by hand, and TOTP codes.
 */

export const APP_CALLBACK = "http://localhost:3000/handler/oauth-callback";
export const APP_ERROR = "http://localhost:3000/handler/error";

export async function pkcePair(seed = "a"): Promise<{ verifier: string; challenge: string }> {
  const verifier = base64url.encode(new TextEncoder().encode(seed.padEnd(40, "-"))).slice(0, 50);
  return { verifier, challenge: await s256Challenge(verifier) };
}

export interface AuthorizeOptions {
  provider?: string;
  challenge: string;
  state?: string;
  type?: "authenticate" | "link";
  token?: string;
  redirectUri?: string;
  errorRedirectUrl?: string;
  afterCallbackRedirectUrl?: string;
  providerScope?: string;
  extra?: Record<string, string>;
}

export function authorizePath(o: AuthorizeOptions): string {
  const q = new URLSearchParams({
    client_id: DEV.id,
    client_secret: DEV.keys.publishable_client_key,
    redirect_uri: o.redirectUri ?? APP_CALLBACK,
    scope: "legacy",
    state: o.state ?? "outer-state",
    grant_type: "authorization_code",
    code_challenge: o.challenge,
    code_challenge_method: "S256",
    response_type: "code",
    type: o.type ?? "authenticate",
    error_redirect_url: o.errorRedirectUrl ?? APP_ERROR,
    ...(o.token ? { token: o.token } : {}),
    ...(o.afterCallbackRedirectUrl ? { after_callback_redirect_url: o.afterCallbackRedirectUrl } : {}),
    ...(o.providerScope ? { provider_scope: o.providerScope } : {}),
    ...o.extra,
  });
  return `/auth/oauth/authorize/${o.provider ?? "github"}?${q.toString()}`;
}

/** GET authorize in redirect mode: the identity provider's page and the inner-state cookie ("name=value"). */
export async function startOAuth(
  provider: TestProvider,
  o: AuthorizeOptions,
): Promise<{ location: string; cookie: string; innerState: string }> {
  const response = await api(provider, authorizePath(o));
  expect(response.status, await response.clone().text()).toBe(307);
  const location = response.headers.get("location")!;
  const innerState = new URL(location).searchParams.get("state")!;
  const setCookie = response.headers.get("set-cookie") ?? "";
  expect(setCookie).toContain(`${oauthInnerStateCookie(innerState)}=true`);
  return { location, cookie: `${oauthInnerStateCookie(innerState)}=true`, innerState };
}

export interface IdentityFields {
  account_id?: string;
  email?: string;
  name?: string;
  email_verified?: "true" | "false";
  scopes?: string;
  action?: "allow" | "deny" | "error";
  error?: string;
}

/** Posts the mock identity provider's form; answers the callback URL it sends the browser to. */
export async function answerIdp(provider: TestProvider, idpLocation: string, fields: IdentityFields): Promise<string> {
  const url = new URL(idpLocation);
  const form = new URLSearchParams({ state: url.searchParams.get("state")!, action: fields.action ?? "allow" });
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && k !== "action") form.set(k, v);
  const response = await request(provider, `${url.pathname}${url.search}`, {
    method: "POST",
    body: form.toString(),
    contentType: "application/x-www-form-urlencoded",
  });
  expect(response.status, await response.clone().text()).toBe(303);
  return response.headers.get("location")!;
}

/** Follows the callback URL with the inner-state cookie; answers the response (303 to the app, or an error). */
export function callback(provider: TestProvider, callbackUrl: string, cookie: string | null): Promise<Response> {
  const url = new URL(callbackUrl);
  return request(provider, `${url.pathname}${url.search}`, { raw: cookie ? { cookie } : {} });
}

/** The app's side of the callback: the code and state in the URL the browser lands on. */
export function codeAndState(response: Response): { code: string; state: string; location: URL } {
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get("location")!);
  return { code: location.searchParams.get("code")!, state: location.searchParams.get("state")!, location };
}

export function codeGrant(
  provider: TestProvider,
  code: string,
  verifier: string,
  redirectUri = APP_CALLBACK,
): Promise<Response> {
  return tokenRequest(provider, {
    grant_type: "authorization_code",
    client_id: DEV.id,
    client_secret: DEV.keys.publishable_client_key,
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
  });
}

export interface OAuthTokens {
  access_token: string;
  refresh_token: string;
  is_new_user: boolean;
  after_callback_redirect_url: string | null;
}

/** The whole flow for one identity: authorize, identity provider, callback, code exchange. */
export async function oauthSignIn(
  provider: TestProvider,
  identity: IdentityFields,
  o: Partial<AuthorizeOptions> = {},
): Promise<OAuthTokens> {
  const { verifier, challenge } = await pkcePair(identity.account_id ?? "x");
  const start = await startOAuth(provider, { ...o, challenge });
  const back = await callback(provider, await answerIdp(provider, start.location, identity), start.cookie);
  const { code } = codeAndState(back);
  return expectJson<OAuthTokens>(await codeGrant(provider, code, verifier));
}

/** The current TOTP of a user, from the emulator's control endpoint. */
export async function currentCode(provider: TestProvider, userId: string): Promise<string> {
  return (await controlClient({ baseUrl: ORIGIN, fetch: provider.fetch }).call("totp", { params: { user_id: userId } }))
    .code;
}

/** Turns MFA on for a signed-in user (PATCH /users/me {totp_secret_base64}). */
export async function enableTotp(
  provider: TestProvider,
  accessToken: string,
  secretBase64 = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=",
): Promise<void> {
  await expectJson(
    await api(provider, "/users/me", {
      method: "PATCH",
      headers: client({ accessToken }),
      json: { totp_secret_base64: secretBase64 },
    }),
  );
}

export const withToken = (accessToken: string, extra: Fields = {}): Fields => client({ accessToken, ...extra });
export { ORIGIN };
