import { describe, expect, it } from "vitest";
import { manualClock } from "../runtime/clock.ts";
import { memoryTokenStore, type TokenStore } from "../session/token-store.ts";
import { fakeFetch, json, knownError, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, unsignedToken } from "../test-support/tokens.ts";
import { clientProjectJson, clientUserJson } from "../test-support/wire-fixtures.ts";
import type { StackClientAppOptions } from "./app-options.ts";
import { StackClientApp } from "./client-app.ts";
import { UserNotSignedInError } from "./get-user.ts";

const T0 = 1_750_000_000_000;
const accessToken = (overrides: Parameters<typeof claims>[2] = {}) => unsignedToken(claims(T0, 600_000, overrides));
const signInBody = (at = accessToken()) => ({ access_token: at, refresh_token: "rt-1", user_id: TEST_USER_ID });

function setup(
  responder: Responder,
  store: TokenStore | null = memoryTokenStore(),
  extra: Partial<StackClientAppOptions> = {},
) {
  const ff = fakeFetch(responder);
  const app = new StackClientApp({
    projectId: "internal",
    publishableClientKey: "pck",
    baseUrl: "http://api.test",
    tokenStore: store,
    fetch: ff.fetch,
    clock: manualClock(T0),
    sleep: recordingSleep().sleep,
    ...extra,
  });
  return { app, calls: ff.calls, store };
}

const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");

describe("signUpWithCredential", () => {
  it("posts the credentials and stores the returned tokens", async () => {
    const at = accessToken();
    const { app, calls, store } = setup(router({ "POST /auth/password/sign-up": () => json(signInBody(at)) }));
    const r = await app.signUpWithCredential({
      email: "ada@example.com",
      password: "pw-123456",
      verificationCallbackUrl: "https://app.example.com/verify",
    });
    expect(r).toEqual({ status: "ok", data: undefined });
    expect(bodyOf(calls[0]!)).toEqual({
      email: "ada@example.com",
      password: "pw-123456",
      verification_callback_url: "https://app.example.com/verify",
    });
    expect(calls[0]!.headers["x-stack-access-token"]).toBeUndefined();
    expect(store!.get()).toEqual({ accessToken: at, refreshToken: "rt-1" });
  });

  it("sends no callback URL with noVerificationCallback, nor in Node where there is no page origin", async () => {
    const { app, calls } = setup(router({ "POST /auth/password/sign-up": () => json(signInBody()) }));
    await app.signUpWithCredential({ email: "a@example.com", password: "p", noVerificationCallback: true });
    await app.signUpWithCredential({ email: "a@example.com", password: "p" });
    expect(calls.map(bodyOf)).toEqual([
      { email: "a@example.com", password: "p" },
      { email: "a@example.com", password: "p" },
    ]);
  });

  it.each([
    ["USER_EMAIL_ALREADY_EXISTS", 409, { email: "a@example.com", would_work_if_email_was_verified: false }],
    ["PASSWORD_TOO_SHORT", 400, { min_length: 8 }],
  ])("returns %s as an error result", async (code, status, details) => {
    const { app, store } = setup(() => knownError(code, status, details));
    const r = await app.signUpWithCredential({ email: "a@example.com", password: "p", noRedirect: true });
    expect(r.status).toBe("error");
    if (r.status === "error") expect(r.error.code).toBe(code);
    expect(store!.get()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("upgrades an anonymous user by sending its token", async () => {
    const store = memoryTokenStore({
      accessToken: accessToken({ is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } }),
      refreshToken: "anon-rt",
    });
    const { app, calls } = setup(router({ "POST /auth/password/sign-up": () => json(signInBody()) }), store);
    await app.signUpWithCredential({ email: "a@example.com", password: "p" });
    expect(calls[0]!.headers["x-stack-access-token"]).toBeDefined();
    expect(calls[0]!.headers["x-stack-allow-anonymous-user"]).toBe("true");
  });

  it("refreshes a session holding only a refresh token to find an anonymous user to upgrade", async () => {
    const anonToken = accessToken({
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });
    const store = memoryTokenStore({ accessToken: null, refreshToken: "anon-rt" });
    const { app, calls } = setup(
      router({
        "POST /auth/oauth/token": () =>
          json({
            access_token: anonToken,
            token_type: "Bearer",
            expires_in: 600,
            scope: "legacy",
            refresh_token: "anon-rt",
          }),
        "POST /auth/password/sign-up": () => json(signInBody()),
      }),
      store,
    );
    await app.signUpWithCredential({ email: "a@example.com", password: "p" });
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual([
      "/api/v1/auth/oauth/token",
      "/api/v1/auth/password/sign-up",
    ]);
    expect(calls[1]!.headers["x-stack-access-token"]).toBe(anonToken);
  });
});

describe("signInWithCredential", () => {
  it("stores tokens on success", async () => {
    const { app, calls, store } = setup(router({ "POST /auth/password/sign-in": () => json(signInBody()) }));
    expect((await app.signInWithCredential({ email: "a@example.com", password: "p" })).status).toBe("ok");
    expect(bodyOf(calls[0]!)).toEqual({ email: "a@example.com", password: "p" });
    expect(store!.get().refreshToken).toBe("rt-1");
  });

  it("returns EMAIL_PASSWORD_MISMATCH as an error result and throws others", async () => {
    const a = setup(() => knownError("EMAIL_PASSWORD_MISMATCH", 400, undefined, "Wrong e-mail or password."));
    const r = await a.app.signInWithCredential({ email: "a@example.com", password: "bad" });
    expect(r.status === "error" && r.error.message).toBe("Wrong e-mail or password.");
    const b = setup(() => knownError("PASSWORD_AUTHENTICATION_NOT_ENABLED", 400));
    await expect(b.app.signInWithCredential({ email: "a@example.com", password: "p" })).rejects.toMatchObject({
      code: "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    });
  });

  it("needs a token store", async () => {
    const { app } = setup(() => json({}), null);
    await expect(app.signInWithCredential({ email: "a@example.com", password: "p" })).rejects.toThrow(
      /without a token store/,
    );
  });
});

describe("getUser", () => {
  const signedIn = () => memoryTokenStore({ accessToken: accessToken(), refreshToken: "rt" });

  it("returns null without a request when there are no tokens", async () => {
    const { app, calls } = setup(() => json({}));
    expect(await app.getUser()).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it("maps the client user JSON to camelCase, with signedUpAt from the timestamp", async () => {
    const { app, calls } = setup(router({ "GET /users/me": () => json(clientUserJson()) }), signedIn());
    const user = await app.getUser({ or: "throw" });
    expect(calls[0]!.headers["x-stack-access-token"]).toBeDefined();
    expect(user).toMatchObject({
      id: TEST_USER_ID,
      displayName: "Ada",
      primaryEmail: "ada@example.com",
      primaryEmailVerified: true,
      clientMetadata: { theme: "dark" },
      hasPassword: true,
      isAnonymous: false,
      isMultiFactorRequired: false,
      oauthProviders: [{ id: "github" }],
      selectedTeam: null,
    });
    expect(user.signedUpAt).toEqual(new Date(1_700_000_000_000));
    expect(user.toClientJson()).toEqual(clientUserJson());
    expect(await user.currentSession.getTokens()).toEqual({ accessToken: expect.any(String), refreshToken: "rt" });
  });

  it("treats CANNOT_GET_OWN_USER_WITHOUT_USER as no user", async () => {
    const { app } = setup(() => knownError("CANNOT_GET_OWN_USER_WITHOUT_USER", 400), signedIn());
    expect(await app.getUser()).toBeNull();
    await expect(app.getUser({ or: "throw" })).rejects.toBeInstanceOf(UserNotSignedInError);
  });

  it("counts an anonymous user as signed in only with or: anonymous", async () => {
    const anon = clientUserJson({ is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } });
    const { app, calls } = setup(router({ "GET /users/me": () => json(anon) }), signedIn());
    expect(await app.getUser()).toBeNull();
    expect((await app.getUser({ or: "anonymous" })).isAnonymous).toBe(true);
    expect(calls.every((c) => c.method === "GET")).toBe(true);
  });

  it("counts a restricted user only with includeRestricted", async () => {
    const restricted = clientUserJson({ is_restricted: true, restricted_reason: { type: "email_not_verified" } });
    const { app } = setup(router({ "GET /users/me": () => json(restricted) }), signedIn());
    expect(await app.getUser()).toBeNull();
    expect((await app.getUser({ includeRestricted: true }))?.isRestricted).toBe(true);
    await expect(app.getUser({ or: "anonymous", includeRestricted: false })).rejects.toThrow(/includeRestricted/);
  });

  it("signs up an anonymous user first with or: anonymous", async () => {
    const anonToken = accessToken({
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });
    const { app, calls, store } = setup(
      router({
        "POST /auth/anonymous/sign-up": () => json(signInBody(anonToken)),
        "GET /users/me": () =>
          json(clientUserJson({ is_anonymous: true, is_restricted: true, restricted_reason: { type: "anonymous" } })),
      }),
    );
    const user = await app.getUser({ or: "anonymous" });
    expect(user.isAnonymous).toBe(true);
    expect(calls.map((c) => `${c.method} ${new URL(c.url).pathname}`)).toEqual([
      "POST /api/v1/auth/anonymous/sign-up",
      "GET /api/v1/users/me",
    ]);
    expect(calls[1]!.headers["x-stack-allow-anonymous-user"]).toBe("true");
    expect(store!.get().accessToken).toBe(anonToken);
  });

  it("redirects to urls.signIn with or: redirect, and says clearly when it cannot redirect", async () => {
    const navigated: string[] = [];
    const a = setup(() => json({}), memoryTokenStore(), {
      redirectMethod: { navigate: (to) => void navigated.push(to) },
      urls: { handler: "/auth" },
    });
    await expect(a.app.getUser({ or: "redirect" })).rejects.toThrow(/redirected to \/auth\/sign-in/);
    expect(navigated).toEqual(["/auth/sign-in"]);
    const b = setup(() => json({}));
    await expect(b.app.getUser({ or: "redirect" })).rejects.toThrow(/redirectMethod is "none"/);
    const c = setup(() => json({}), memoryTokenStore(), { redirectMethod: "window" });
    await expect(c.app.getUser({ or: "redirect" })).rejects.toThrow(/needs a browser window/);
  });
});

describe("the current user", () => {
  it("updates with a snake_case PATCH /users/me", async () => {
    const { app, calls } = setup(
      router({ "GET /users/me": () => json(clientUserJson()), "PATCH /users/me": () => json(clientUserJson()) }),
      memoryTokenStore({ accessToken: accessToken(), refreshToken: "rt" }),
    );
    const user = await app.getUser({ or: "throw" });
    await user.update({
      displayName: "Grace",
      clientMetadata: { a: 1 },
      selectedTeamId: null,
      totpMultiFactorSecret: new Uint8Array([1, 2, 3]),
    });
    await user.setDisplayName(null);
    expect(bodyOf(calls[1]!)).toEqual({
      display_name: "Grace",
      client_metadata: { a: 1 },
      selected_team_id: null,
      totp_secret_base64: "AQID",
    });
    expect(bodyOf(calls[2]!)).toEqual({ display_name: null });
  });

  it("deletes itself and ends the session", async () => {
    const { app, calls, store } = setup(
      router({ "GET /users/me": () => json(clientUserJson()), "DELETE /users/me": () => json({ success: true }) }),
      memoryTokenStore({ accessToken: accessToken(), refreshToken: "rt" }),
    );
    await (await app.getUser({ or: "throw" })).delete();
    expect(calls[1]!.method).toBe("DELETE");
    expect(store!.get()).toEqual({ accessToken: null, refreshToken: null });
  });
});

describe("signOut", () => {
  it("deletes the current session with body {} and clears both tokens", async () => {
    const { app, calls, store } = setup(
      router({ "DELETE /auth/sessions/current": () => json({ success: true }) }),
      memoryTokenStore({ accessToken: accessToken(), refreshToken: "rt" }),
    );
    await app.signOut();
    expect(calls[0]!.body).toBe("{}");
    expect(store!.get()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("ignores REFRESH_TOKEN_ERROR and still ends the session", async () => {
    const { app, store } = setup(
      () => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401),
      memoryTokenStore({ accessToken: accessToken(), refreshToken: "rt" }),
    );
    await expect(app.signOut()).resolves.toBeUndefined();
    expect(store!.get()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("ends the session locally when the refresh token is already invalid", async () => {
    const { app, calls, store } = setup(
      router({ "POST /auth/oauth/token": () => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401) }),
      memoryTokenStore({ refreshToken: "dead" }),
    );
    await app.signOut();
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual(["/api/v1/auth/oauth/token"]);
    expect(store!.get()).toEqual({ accessToken: null, refreshToken: null });
  });
});

describe("tokens and project", () => {
  it("gives the access token, refresh token and auth JSON", async () => {
    const at = accessToken();
    const { app } = setup(() => json({}), memoryTokenStore({ accessToken: at, refreshToken: "rt" }));
    expect(await app.getAccessToken()).toBe(at);
    expect(await app.getRefreshToken()).toBe("rt");
    expect(await app.getAuthJson()).toEqual({ accessToken: at, refreshToken: "rt" });
    const header = await app.getAuthorizationHeader();
    expect(JSON.parse(Buffer.from(header!.replace("Bearer stackauth_", ""), "base64").toString())).toEqual({
      accessToken: at,
      refreshToken: "rt",
    });
  });

  it("maps GET /projects/current to a camelCase Project", async () => {
    const { app } = setup(router({ "GET /projects/current": () => json(clientProjectJson()) }));
    expect(await app.getProject()).toEqual({
      id: "internal",
      displayName: "Stack Dashboard",
      config: {
        signUpEnabled: true,
        credentialEnabled: true,
        magicLinkEnabled: false,
        passkeyEnabled: false,
        clientTeamCreationEnabled: true,
        clientUserDeletionEnabled: false,
        oauthProviders: [{ id: "github" }],
        allowUserApiKeys: false,
        allowTeamApiKeys: true,
      },
    });
  });
});
