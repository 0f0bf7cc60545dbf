import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { StackAdminApp } from "../admin/admin-app.ts";
import { createCodeVerifier, s256CodeChallenge } from "../crypto/pkce.ts";
import { KnownError } from "../errors/known-error.ts";
import { manualClock } from "../runtime/clock.ts";
import { seededRandom } from "../runtime/ids.ts";
import { AdminSessionUnsupportedError } from "../session/admin-session.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json, knownError, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, unsignedToken } from "../test-support/tokens.ts";
import type { StackClientAppOptions } from "./app-options.ts";
import { memoryCookieDocument, memoryStorage, type BrowserEnvironment } from "./browser-env.ts";
import { StackClientApp } from "./client-app.ts";
import { MFA_ATTEMPT_CODE_STORAGE_KEY } from "./mfa.ts";

/** The SDK's strong-auth pieces against a scripted fetch (the end-to-end runs are in conformance/). */

const T0 = 1_750_000_000_000;
const tokens = { access_token: unsignedToken(claims(T0, 600_000)), refresh_token: "rt-1", user_id: TEST_USER_ID };

/** Answers in turn, the last one repeating (per route, unlike sequence(), which counts every call). */
function inTurn(...answers: (() => Response)[]): () => Response {
  let i = 0;
  return () => answers[Math.min(i++, answers.length - 1)]!();
}

function setup(
  responder: Responder,
  extra: Partial<StackClientAppOptions> = {},
  browser: Partial<BrowserEnvironment> = {},
) {
  const ff = fakeFetch(responder);
  const sleep = recordingSleep();
  const navigated: string[] = [];
  const warnings: string[] = [];
  const page = { url: "http://localhost:3000/handler/oauth-callback" };
  const cookies = memoryCookieDocument();
  const sessionStorage = memoryStorage();
  const env = {
    currentUrl: () => page.url,
    replaceUrl: (url: string) => void (page.url = url),
    warn: (m: string) => void warnings.push(m),
    alert: (m: string) => void warnings.push(`alert: ${m}`),
    ...browser,
    cookies,
    sessionStorage,
  };
  const app = new StackClientApp({
    projectId: "internal",
    publishableClientKey: "pck",
    baseUrl: "http://api.test",
    tokenStore: memoryTokenStore(),
    fetch: ff.fetch,
    clock: manualClock(T0),
    sleep: sleep.sleep,
    random: seededRandom("strong-auth"),
    redirectMethod: { navigate: (to) => void navigated.push(to) },
    browser: env,
    ...extra,
  });
  return { app, calls: ff.calls, waits: sleep.waits, navigated, warnings, page, env };
}

describe("PKCE", () => {
  it("is BASE64URL(SHA256(verifier)) (RFC 7636 §4.2) and makes 43-character verifiers", async () => {
    const verifier = "dBjftJeZ4CVP-mJ92K2vXHMNt0JHkQqIQKGnaZcpM1g";
    expect(await s256CodeChallenge(verifier)).toBe(createHash("sha256").update(verifier).digest("base64url"));
    expect(createCodeVerifier(seededRandom("v"))).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe("signInWithOAuth", () => {
  it("keeps the verifier in stack-oauth-outer-<state>, asks for JSON mode and navigates to the location", async () => {
    const { app, calls, navigated, env } = setup(
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
    const { app, warnings, page, calls } = setup(() => json({}));
    expect(await app.callOAuthCallback()).toBe(false);
    expect(warnings[0]).toMatch(/^Missing required query parameter on OAuth callback: code/);
    page.url = "http://localhost:3000/handler/oauth-callback?code=c&state=s";
    expect(await app.callOAuthCallback()).toBe(false);
    expect(warnings[1]).toMatch(/not its cookie/);
    expect(calls).toHaveLength(0);
  });

  it("strips code and state, exchanges with the verifier, stores the session and goes to after-sign-up", async () => {
    const { app, calls, page, env, navigated } = setup(
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
    const first = setup(() => json({}));
    first.page.url =
      "http://localhost:3000/handler/error?errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=denied&details=%7B%7D";
    await expect(first.app.callOAuthCallback()).rejects.toMatchObject({
      code: "OAUTH_PROVIDER_ACCESS_DENIED",
      message: "denied",
    });
    expect(first.page.url).toBe("http://localhost:3000/handler/error");

    const mfa = setup(
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
    const { app, env, page } = setup(
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
    const { app, navigated, env, calls } = setup(
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
    const { app, navigated, page } = setup(
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
    const { app, navigated, page, env } = setup(
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

describe("promptCliLogin", () => {
  const created = () => json({ polling_code: "poll", login_code: "login", expires_at: "2026-01-01T00:00:00.000Z" });

  it("shows the confirm link, waits 2000 ms between polls (injected sleep) and answers the refresh token on 201", async () => {
    const { app, waits, calls } = setup(
      router({
        "POST /auth/cli": created,
        "POST /auth/cli/poll": inTurn(
          () => json({ status: "waiting" }),
          () => json({ status: "waiting" }),
          () => json({ status: "success", refresh_token: "cli-rt" }, 201),
        ),
      }),
    );
    const prompts: string[] = [];
    const result = await app.promptCliLogin({
      appUrl: "https://app.example.com/base",
      promptLink: (url) => void prompts.push(url),
    });
    expect(result).toEqual({ status: "ok", data: "cli-rt" });
    expect(prompts).toEqual(["https://app.example.com/handler/cli-auth-confirm?login_code=login"]);
    expect(waits).toEqual([2000, 2000]);
    expect(JSON.parse(calls[1]!.body!)).toEqual({ polling_code: "poll" });
  });

  it("times out after maxAttempts, and reports expired and used with the spec's messages", async () => {
    const waiting = setup(
      router({ "POST /auth/cli": created, "POST /auth/cli/poll": () => json({ status: "waiting" }) }),
    );
    const timeout = await waiting.app.promptCliLogin({
      appUrl: "https://app.example.com",
      maxAttempts: 3,
      waitTimeMillis: 10,
      promptLink: () => {},
    });
    expect(timeout.status === "error" && [timeout.error.code, timeout.error.message]).toEqual([
      "CLI_AUTH_ERROR",
      "Timed out waiting for CLI authentication.",
    ]);
    expect(waiting.waits).toEqual([10, 10, 10]);
    for (const [status, code, message] of [
      ["expired", "CLI_AUTH_EXPIRED_ERROR", "CLI authentication request expired. Please try again."],
      ["used", "CLI_AUTH_USED_ERROR", "This authentication token has already been used."],
    ] as const) {
      const { app } = setup(router({ "POST /auth/cli": created, "POST /auth/cli/poll": () => json({ status }) }));
      const r = await app.promptCliLogin({ appUrl: "https://app.example.com", promptLink: () => {} });
      expect(r.status === "error" && [r.error.code, r.error.message]).toEqual([code, message]);
    }
    const invalid = setup(
      router({ "POST /auth/cli": created, "POST /auth/cli/poll": () => knownError("INVALID_POLLING_CODE", 400) }),
    );
    const r = await invalid.app.promptCliLogin({ appUrl: "https://app.example.com", promptLink: () => {} });
    expect(r.status === "error" && r.error.code).toBe("CLI_AUTH_ERROR");
  });
});

describe("passkeys", () => {
  const registrationOptions = (rpId: string, userId = "dXNlcg") => ({
    options_json: {
      challenge: "Y2g",
      rp: { id: rpId, name: "p" },
      user: { id: userId, name: "u", displayName: "u" },
      pubKeyCredParams: [{ type: "public-key", alg: -7 }],
    },
    code: "reg-code",
  });

  it("reports a failure that is not a WebAuthn one as PASSKEY_AUTHENTICATION_FAILED", async () => {
    const webAuthn = {
      startRegistration: () => Promise.reject(new Error("unused")),
      startAuthentication: () => Promise.reject(new Error("boom")),
    };
    const { app } = setup(
      router({
        "POST /auth/passkey/initiate-passkey-authentication": () =>
          json({ options_json: { challenge: "Y2g", rpId: "THIS_VALUE_WILL_BE_REPLACED.example.com" }, code: "c" }),
      }),
      { webAuthn },
    );
    const r = await app.signInWithPasskey();
    expect(r.status === "error" && [r.error.code, r.error.message]).toEqual([
      "PASSKEY_AUTHENTICATION_FAILED",
      "Failed to sign in with passkey",
    ]);
  });

  it("goes to after-sign-in after a passkey sign-in, unless noRedirect", async () => {
    const webAuthn = {
      startRegistration: () => Promise.reject(new Error("unused")),
      startAuthentication: () =>
        Promise.resolve({
          id: "aWQ",
          rawId: "aWQ",
          type: "public-key" as const,
          response: { clientDataJSON: "e30", authenticatorData: "YQ", signature: "cw" },
          clientExtensionResults: {},
        }),
    };
    const routes = {
      "POST /auth/passkey/initiate-passkey-authentication": () =>
        json({ options_json: { challenge: "Y2g", rpId: "THIS_VALUE_WILL_BE_REPLACED.example.com" }, code: "c" }),
      "POST /auth/passkey/sign-in": () => json({ ...tokens, is_new_user: false }),
    };
    const redirecting = setup(router(routes), { webAuthn });
    expect(await redirecting.app.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
    expect(redirecting.navigated).toEqual(["/"]);
    const quiet = setup(router(routes), { webAuthn });
    expect(await quiet.app.signInWithPasskey({ noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect(quiet.navigated).toEqual([]);
    expect(await quiet.app.getRefreshToken()).toBe("rt-1");
  });

  it("refuses a non-placeholder RP id; reports WebAuthn failure codes and user handles outside 1–64 bytes as PASSKEY_WEBAUTHN_ERROR", async () => {
    const signedIn = (options: unknown) =>
      setup(
        router({
          "POST /auth/password/sign-in": () => json(tokens),
          "GET /users/me": () => json({}),
          "POST /auth/passkey/initiate-passkey-registration": () => json(options),
        }),
      );
    const wrongRp = signedIn(registrationOptions("example.com"));
    await wrongRp.app.signInWithCredential({ email: "a@example.com", password: "pw", noRedirect: true });
    const { registerPasskey } = await import("./passkeys.ts");
    const ctx = (wrongRp.app as unknown as { ctx: Parameters<typeof registerPasskey>[0] }).ctx;
    await expect(registerPasskey(ctx, ctx.session()!, { hostname: "localhost" })).rejects.toThrow(/placeholder/);
    const aborted = setup(
      router({
        "POST /auth/password/sign-in": () => json(tokens),
        "POST /auth/passkey/initiate-passkey-registration": () =>
          json(registrationOptions("THIS_VALUE_WILL_BE_REPLACED.example.com")),
      }),
      {
        webAuthn: {
          startRegistration: () =>
            Promise.reject(
              Object.assign(new Error("Registration ceremony was sent an abort signal"), {
                code: "ERROR_CEREMONY_ABORTED",
              }),
            ),
          startAuthentication: () => Promise.reject(new Error("unused")),
        },
      },
    );
    await aborted.app.signInWithCredential({ email: "a@example.com", password: "pw", noRedirect: true });
    const abortedUser = (aborted.app as unknown as { ctx: Parameters<typeof registerPasskey>[0] }).ctx;
    const abortedResult = await registerPasskey(abortedUser, abortedUser.session()!, { hostname: "localhost" });
    expect(abortedResult.status === "error" && [abortedResult.error.code, abortedResult.error.details]).toEqual([
      "PASSKEY_WEBAUTHN_ERROR",
      { message: "Registration ceremony was sent an abort signal", code: "ERROR_CEREMONY_ABORTED" },
    ]);
    const longId = signedIn(registrationOptions("THIS_VALUE_WILL_BE_REPLACED.example.com", "A".repeat(90)));
    await longId.app.signInWithCredential({ email: "a@example.com", password: "pw", noRedirect: true });
    const longCtx = (longId.app as unknown as { ctx: Parameters<typeof registerPasskey>[0] }).ctx;
    const r = await registerPasskey(longCtx, longCtx.session()!, { hostname: "localhost" });
    expect(r.status === "error" && [r.error.code, r.error.details]).toEqual([
      "PASSKEY_WEBAUTHN_ERROR",
      { message: "User ID was not between 1 and 64 characters", code: "ERROR_INVALID_USER_ID_LENGTH" },
    ]);
  });
});
