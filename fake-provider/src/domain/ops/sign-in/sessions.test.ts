import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PUBLIC_CLIENT_SENTINEL, constants, tokenResponse } from "@authsim/sdk/contract";
import {
  DEV,
  INTERNAL,
  START_MILLIS,
  api,
  claimsOf,
  client,
  expectJson,
  expectKnownError,
  expireAccessTokens,
  newProvider,
  refreshGrant,
  server,
  signUp,
  tokenRequest,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";

/** Sessions and the OAuth token endpoint's refresh grant over HTTP (protocol.md §4.3–4.5); the ops' rules are in sessions.seam.test.ts. */

const UNKNOWN_USER = "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3";

let provider: TestProvider;
let user: SignedUp;
beforeEach(async () => {
  provider = newProvider();
  user = await signUp(provider);
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const createSession = (body: Record<string, unknown>) =>
  api(provider, "/auth/sessions", { headers: server(), json: body });
const sessionOf = (accessToken: string) => provider.store.read.sessions.get(claimsOf(accessToken).refresh_token_id);

describe("POST /auth/sessions (server)", () => {
  it("opens a one-year, non-impersonation session by default", async () => {
    const body = await expectJson<{ refresh_token: string; access_token: string }>(
      await createSession({ user_id: user.user_id }),
    );
    expect(Object.keys(body).sort()).toEqual(["access_token", "refresh_token"]);
    expect(claimsOf(body.access_token).sub).toBe(user.user_id);
    expect(sessionOf(body.access_token)).toMatchObject({
      userId: user.user_id,
      refreshToken: body.refresh_token,
      isImpersonation: false,
      expiresAtMillis: START_MILLIS + constants.serverSessionDefaultExpiresInMillis,
    });
    await expectJson(await refreshGrant(provider, body.refresh_token));
  });

  it("records is_impersonation and a custom lifetime, after which the refresh token is refused", async () => {
    const body = await expectJson<{ refresh_token: string; access_token: string }>(
      await createSession({ user_id: user.user_id, is_impersonation: true, expires_in_millis: 3_600_000 }),
    );
    expect(sessionOf(body.access_token)).toMatchObject({
      isImpersonation: true,
      expiresAtMillis: START_MILLIS + 3_600_000,
    });
    provider.clock.advance(3_600_000);
    await expectKnownError(await refreshGrant(provider, body.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("rejects an unknown user with USER_ID_DOES_NOT_EXIST", async () => {
    const body = await expectKnownError(await createSession({ user_id: UNKNOWN_USER }), "USER_ID_DOES_NOT_EXIST", 400);
    expect(body.details).toEqual({ user_id: UNKNOWN_USER });
  });

  it("rejects another project's user with USER_ID_DOES_NOT_EXIST", async () => {
    const internalUser = await signUp(provider, { project: INTERNAL });
    await expectKnownError(await createSession({ user_id: internalUser.user_id }), "USER_ID_DOES_NOT_EXIST", 400);
  });

  it("rejects a lifetime beyond 367 days with SCHEMA_ERROR", async () => {
    await expectKnownError(
      await createSession({ user_id: user.user_id, expires_in_millis: 368 * 24 * 3_600_000 }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("is refused to client access with INSUFFICIENT_ACCESS_TYPE", async () => {
    const response = await api(provider, "/auth/sessions", { headers: client(), json: { user_id: user.user_id } });
    await expectKnownError(response, "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("DELETE /auth/sessions/current", () => {
  it("signs out: the session's refresh token stops working", async () => {
    const response = await api(provider, "/auth/sessions/current", {
      method: "DELETE",
      headers: client({ accessToken: user.access_token }),
      json: {},
    });
    expect(await expectJson(response)).toEqual({ success: true });
    await expectKnownError(await refreshGrant(provider, user.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("answers REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED for a valid token whose user was deleted", async () => {
    await api(provider, `/users/${user.user_id}`, { method: "DELETE", headers: server() });
    const response = await api(provider, "/auth/sessions/current", {
      method: "DELETE",
      headers: client({ accessToken: user.access_token }),
      json: {},
    });
    await expectKnownError(response, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
  });

  it("without an access token answers ACCESS_TOKEN_EXPIRED, as the real handler does for a token naming no session", async () => {
    const response = await api(provider, "/auth/sessions/current", { method: "DELETE", headers: client() });
    await expectKnownError(response, "ACCESS_TOKEN_EXPIRED", 401);
  });
});

describe("POST /auth/oauth/token, refresh grant", () => {
  it("answers a new access token for the same session and echoes the refresh token", async () => {
    provider.clock.advance(30_000);
    const response = await refreshGrant(provider, user.refresh_token);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    const body = tokenResponse.parse(await expectJson(response));
    expect(body).toMatchObject({
      token_type: "Bearer",
      expires_in: 600,
      scope: "legacy",
      refresh_token: user.refresh_token,
    });
    const claims = claimsOf(body.access_token);
    expect(claims.refresh_token_id).toBe(claimsOf(user.access_token).refresh_token_id);
    expect(claims.iat).toBe(START_MILLIS / 1000 + 30);
  });

  it("keeps a user signed in past the access token's lifetime", async () => {
    expireAccessTokens(provider);
    await expectKnownError(
      await api(provider, "/users/me", { headers: client({ accessToken: user.access_token }) }),
      "ACCESS_TOKEN_EXPIRED",
      401,
    );
    const { access_token } = tokenResponse.parse(await expectJson(await refreshGrant(provider, user.refresh_token)));
    await expectJson(await api(provider, "/users/me", { headers: client({ accessToken: access_token }) }));
  });

  it("carries profile changes into the refreshed token's claims", async () => {
    await api(provider, "/users/me", {
      method: "PATCH",
      headers: client({ accessToken: user.access_token }),
      json: { display_name: "Ada" },
    });
    const { access_token } = tokenResponse.parse(await expectJson(await refreshGrant(provider, user.refresh_token)));
    expect(claimsOf(access_token).name).toBe("Ada");
  });

  it("accepts the public-client sentinel, no secret, and project#main as client id", async () => {
    const base = { grant_type: "refresh_token", refresh_token: user.refresh_token };
    await expectJson(
      await tokenRequest(provider, { ...base, client_id: DEV.id, client_secret: PUBLIC_CLIENT_SENTINEL }),
    );
    await expectJson(await tokenRequest(provider, { ...base, client_id: DEV.id }));
    await expectJson(
      await tokenRequest(provider, {
        ...base,
        client_id: `${DEV.id}#main`,
        client_secret: DEV.keys.publishable_client_key,
      }),
    );
  });

  it("rejects an unknown client with INVALID_OAUTH_CLIENT_ID_OR_SECRET", async () => {
    const clientId = "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3";
    const response = await tokenRequest(provider, {
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: user.refresh_token,
    });
    const body = await expectKnownError(response, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expect(body.details).toEqual({ client_id: clientId });
  });

  it("rejects a wrong client secret with INVALID_OAUTH_CLIENT_ID_OR_SECRET", async () => {
    const response = await tokenRequest(provider, {
      grant_type: "refresh_token",
      client_id: DEV.id,
      client_secret: INTERNAL.keys.publishable_client_key,
      refresh_token: user.refresh_token,
    });
    const body = await expectKnownError(response, "INVALID_OAUTH_CLIENT_ID_OR_SECRET", 400);
    expect(body.details).toEqual({ client_id: DEV.id });
  });

  it("rejects a scope other than legacy with INVALID_SCOPE", async () => {
    const response = await tokenRequest(provider, {
      grant_type: "refresh_token",
      client_id: DEV.id,
      refresh_token: user.refresh_token,
      scope: "openid",
    });
    const body = await expectKnownError(response, "INVALID_SCOPE", 400);
    expect(body.error).toContain('"openid"');
  });

  it("answers an unsupported grant type in the standard OAuth error shape", async () => {
    const response = await tokenRequest(provider, { grant_type: "password", client_id: DEV.id });
    expect(response.status).toBe(400);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    expect(await expectJson(response, 400)).toMatchObject({ error: "unsupported_grant_type" });
  });
});
