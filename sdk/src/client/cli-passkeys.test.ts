import { describe, expect, it } from "vitest";
import { json, knownError } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { inTurn, strongAuthApp, tokens } from "../test-support/strong-auth-app.ts";

/** The CLI login and passkeys of the SDK against a scripted fetch (the end-to-end runs are in conformance/). */

describe("promptCliLogin", () => {
  const created = () => json({ polling_code: "poll", login_code: "login", expires_at: "2026-01-01T00:00:00.000Z" });

  it("shows the confirm link, waits 2000 ms between polls (injected sleep) and answers the refresh token on 201", async () => {
    const { app, waits, calls } = strongAuthApp(
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
    const waiting = strongAuthApp(
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
      const { app } = strongAuthApp(
        router({ "POST /auth/cli": created, "POST /auth/cli/poll": () => json({ status }) }),
      );
      const r = await app.promptCliLogin({ appUrl: "https://app.example.com", promptLink: () => {} });
      expect(r.status === "error" && [r.error.code, r.error.message]).toEqual([code, message]);
    }
    const invalid = strongAuthApp(
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
    const { app } = strongAuthApp(
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
    const redirecting = strongAuthApp(router(routes), { webAuthn });
    expect(await redirecting.app.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
    expect(redirecting.navigated).toEqual(["/"]);
    const quiet = strongAuthApp(router(routes), { webAuthn });
    expect(await quiet.app.signInWithPasskey({ noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect(quiet.navigated).toEqual([]);
    expect(await quiet.app.getRefreshToken()).toBe("rt-1");
  });

  it("refuses a non-placeholder RP id; reports WebAuthn failure codes and user handles outside 1–64 bytes as PASSKEY_WEBAUTHN_ERROR", async () => {
    const signedIn = (options: unknown) =>
      strongAuthApp(
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
    const aborted = strongAuthApp(
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
