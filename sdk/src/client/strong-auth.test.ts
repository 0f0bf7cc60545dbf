import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { StackAdminApp } from "../admin/admin-app.ts";
import { createCodeVerifier, s256CodeChallenge } from "../crypto/pkce.ts";
import { KnownError } from "../errors/known-error.ts";
import { seededRandom } from "../runtime/ids.ts";
import { AdminSessionUnsupportedError } from "../session/admin-session.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json, knownError } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { memoryCookieDocument } from "./browser-env.ts";
import { MFA_ATTEMPT_CODE_STORAGE_KEY } from "./mfa.ts";

import { inTurn, strongAuthApp, tokens } from "../test-support/strong-auth-app.ts";

/** The SDK's strong-auth pieces against a scripted fetch (the end-to-end runs are in conformance/): PKCE, OAuth, MFA. */

describe("PKCE", () => {
  it("is BASE64URL(SHA256(verifier)) (RFC 7636 §4.2) and makes 43-character verifiers", async () => {
    const verifier = "dBjftJeZ4CVP-mJ92K2vXHMNt0JHkQqIQKGnaZcpM1g";
    expect(await s256CodeChallenge(verifier)).toBe(createHash("sha256").update(verifier).digest("base64url"));
    expect(createCodeVerifier(seededRandom("v"))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("signInWithOAuth", () => {
  it("keeps the verifier in stack-oauth-outer-<state>, asks for JSON mode and navigates to the location", async () => {
    const { app, calls, navigated, env } = strongAuthApp(
      router({
        "GET /auth/oauth/authorize/github": () =>
          json({ location: "http://api.test/__emulator/oauth/authorize/github?state=i" }),
      }),
    );
    await app.signInWithOAuth("github");
    const url = new URL(calls[0]!.url);
    const q = Object.fromEntries(url.searchParams);
    expect(q).toMatchObject({
      client_id: "internal",
      client_secret: "pck",
      redirect_uri: "http://localhost:3000/handler/oauth-callback",
      scope: "legacy",
      grant_type: "authorization_code",
      code_challenge_method: "S256",
      response_type: "code",
      type: "authenticate",
      error_redirect_url: "http://localhost:3000/handler/error",
      stack_response_mode: "json",
    });
    expect(q.token).toBeUndefined();
    const verifier = env.cookies.cookie.match(new RegExp(`stack-oauth-outer-${q.state}=([^;]+)`))?.[1];
    expect(await s256CodeChallenge(verifier!)).toBe(q.code_challenge);
    expect(calls[0]!.headers["x-stack-access-type"]).toBeUndefined();
    expect(navigated).toEqual(["http://api.test/__emulator/oauth/authorize/github?state=i"]);
  });

  it("is refused for an admin (project-owner) session (spec §5)", async () => {
    const ff = fakeFetch(() => json({}));
    const admin = new StackAdminApp({
      projectId: "p",
      baseUrl: "http://api.test",
      projectOwnerSession: "token",
      tokenStore: memoryTokenStore(),
      fetch: ff.fetch,
      browser: { cookies: memoryCookieDocument(), currentUrl: () => "http://localhost:3000/" },
    });
    await expect(admin.signInWithOAuth("github")).rejects.toBeInstanceOf(AdminSessionUnsupportedError);
    expect(ff.calls).toHaveLength(0);
  });
});

describe("callOAuthCallback", () => {
  it("ignores a callback without code or state, or without the verifier cookie, with a warning", async () => {
    const { app, warnings, page, calls } = strongAuthApp(() => json({}));
    expect(await app.callOAuthCallback()).toBe(false);
    expect(warnings[0]).toMatch(/^Missing required query parameter on OAuth callback: code/);
    page.url = "http://localhost:3000/handler/oauth-callback?code=c&state=s";
    expect(await app.callOAuthCallback()).toBe(false);
    expect(warnings[1]).toMatch(/not its cookie/);
    expect(calls).toHaveLength(0);
  });

  it("strips code and state, exchanges with the verifier, stores the session and goes to after-sign-up", async () => {
    const { app, calls, page, env, navigated } = strongAuthApp(
      router({
        "POST /auth/oauth/token": () =>
          json({
            ...tokens,
            token_type: "Bearer",
            expires_in: 600,
            scope: "legacy",
            is_new_user: true,
            after_callback_redirect_url: null,
          }),
      }),
    );
    env.cookies.cookie = "stack-oauth-outer-s1=verifier-1; path=/";
    page.url = "http://localhost:3000/handler/oauth-callback?keep=1&code=c1&state=s1";
    expect(await app.callOAuthCallback()).toBe(true);
    expect(page.url).toBe("http://localhost:3000/handler/oauth-callback?keep=1");
    expect(Object.fromEntries(new URLSearchParams(calls[0]!.body))).toEqual({
      grant_type: "authorization_code",
      code: "c1",
      redirect_uri: "http://localhost:3000/handler/oauth-callback",
      code_verifier: "verifier-1",
      client_id: "internal",
      client_secret: "pck",
    });
    expect(env.cookies.cookie).toBe("");
    expect(await app.getRefreshToken()).toBe("rt-1");
    expect(navigated).toEqual(["/"]);
  });

  it("throws the known error the provider put in the URL, and keeps the MFA attempt code for the mfa page", async () => {
    const first = strongAuthApp(() => json({}));
    first.page.url =
      "http://localhost:3000/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=denied&details=%7B%7D";
    await expect(first.app.callOAuthCallback()).rejects.toMatchObject({
      code: "OAUTH_PROVIDER_ACCESS_DENIED",
      message: "denied",
    });
    expect(first.page.url).toBe("http://localhost:3000/handler/error");

    const mfa = strongAuthApp(
      router({
        "POST /auth/oauth/token": () =>
          knownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400, { attempt_code: "att-1" }),
      }),
    );
    mfa.env.cookies.cookie = "stack-oauth-outer-s=v";
    mfa.page.url = "http://localhost:3000/handler/oauth-callback?code=c&state=s";
    await expect(mfa.app.callOAuthCallback()).rejects.toBeInstanceOf(KnownError);
    expect(mfa.env.sessionStorage.getItem(MFA_ATTEMPT_CODE_STORAGE_KEY)).toBe("att-1");
    expect(mfa.navigated).toEqual(["/handler/mfa"]);
  });

  it("wraps an OAuth-style refusal in 'Error signing in during OAuth callback. Please try again.'", async () => {
    const { app, env, page } = strongAuthApp(
      router({
        "POST /auth/oauth/token": () => json({ error: "invalid_grant", error_description: "Invalid grant" }, 400),
      }),
    );
    env.cookies.cookie = "stack-oauth-outer-s=v";
    page.url = "http://localhost:3000/handler/oauth-callback?code=c&state=s";
    await expect(app.callOAuthCallback()).rejects.toThrow("Error signing in during OAuth callback. Please try again.");
  });
});

describe("MFA", () => {
  it("password sign-in needing MFA keeps the attempt code, goes to the mfa route and throws; signInWithMfa finishes", async () => {
    const { app, navigated, env, calls } = strongAuthApp(
      router({
        "POST /auth/password/sign-in": () =>
          knownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400, { attempt_code: "att-2" }),
        "POST /auth/mfa/sign-in": inTurn(
          () => knownError("INVALID_TOTP_CODE", 400),
          () => json({ ...tokens, is_new_user: false }),
        ),
      }),
    );
    await expect(app.signInWithCredential({ email: "a@example.com", password: "pw" })).rejects.toMatchObject({
      code: "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    });
    expect(navigated).toEqual(["/handler/mfa"]);
    expect(app.getPendingMfaAttemptCode()).toBe("att-2");
    const wrong = await app.signInWithMfa("000000", "att-2");
    expect(wrong.status === "error" && wrong.error.code).toBe("INVALID_TOTP_CODE");
    expect(await app.signInWithMfa("123456", "att-2")).toEqual({ status: "ok", data: undefined });
    expect(JSON.parse(calls.at(-1)!.body!)).toEqual({ type: "totp", totp: "123456", code: "att-2" });
    expect(env.sessionStorage.getItem(MFA_ATTEMPT_CODE_STORAGE_KEY)).toBeNull();
    expect(navigated).toEqual(["/handler/mfa", "/"]);
  });
});

describe("MFA keeps the return address", () => {
  it("carries after_auth_return_to of the sign-in page on to the mfa page (spec §2)", async () => {
    const { app, navigated, page } = strongAuthApp(
      router({
        "POST /auth/password/sign-in": () =>
          knownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400, { attempt_code: "att-3" }),
      }),
    );
    page.url = "http://localhost:3000/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2";
    await expect(app.signInWithCredential({ email: "a@example.com", password: "pw" })).rejects.toMatchObject({
      code: "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    });
    expect(navigated).toEqual(["/handler/mfa?after_auth_return_to=%2Fprotected%3Ftab%3D2"]);
  });

  it("carries the after-callback URL of an OAuth flow on to the mfa page, though the exchange answered only an attempt code", async () => {
    const { app, navigated, page, env } = strongAuthApp(
      router({
        "GET /auth/oauth/authorize/github": () =>
          json({ location: "http://api.test/__emulator/oauth/authorize/github" }),
        "POST /auth/oauth/token": () =>
          knownError("MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400, { attempt_code: "att-4" }),
      }),
    );
    page.url = "http://localhost:3000/handler/sign-in";
    await app.signInWithOAuth("github", { returnTo: "/protected?tab=2" });
    const state = env.cookies.cookie.match(/stack-oauth-outer-([^=]+)=/)?.[1];
    page.url = `http://localhost:3000/handler/oauth-callback?code=c&state=${state}`;
    await expect(app.callOAuthCallback()).rejects.toMatchObject({ code: "MULTI_FACTOR_AUTHENTICATION_REQUIRED" });
    expect(navigated.at(-1)).toBe(
      `/handler/mfa?after_auth_return_to=${encodeURIComponent("http://localhost:3000/protected?tab=2")}`,
    );
    // Both of the flow's cookies are spent: a replayed callback finds neither.
    expect(env.cookies.cookie).toBe("");
  });
});
