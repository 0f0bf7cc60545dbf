import { describe, expect, it } from "vitest";
import type { ApiKeyJson } from "../contract/areas/api-keys.ts";
import { manualClock } from "../runtime/clock.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json, knownError, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, unsignedToken } from "../test-support/tokens.ts";
import { clientUserJson } from "../test-support/wire-fixtures.ts";
import { StackClientApp } from "./client-app.ts";

/** The account surfaces of the client kit that no provider decides: local rules, redirects and result shapes. */

const T0 = 1_750_000_000_000;
const KEY_ID = "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3";

function setup(responder: Responder, navigated: string[] = []) {
  const ff = fakeFetch(responder);
  const clock = manualClock(T0);
  const store = memoryTokenStore({ accessToken: unsignedToken(claims(T0, 600_000)), refreshToken: "rt" });
  const app = new StackClientApp({
    projectId: "internal",
    baseUrl: "http://api.test",
    tokenStore: store,
    fetch: ff.fetch,
    clock,
    sleep: recordingSleep().sleep,
    redirectMethod: { navigate: (to) => void navigated.push(to) },
    urls: { afterSignIn: "/welcome-back", afterSignUp: "/welcome" },
  });
  return { app, calls: ff.calls, clock };
}

const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");

function keyJson(overrides: Partial<ApiKeyJson> = {}): ApiKeyJson {
  return {
    id: KEY_ID,
    type: "user",
    user_id: TEST_USER_ID,
    description: "ci",
    created_at_millis: T0,
    is_public: false,
    value: { last_four: "abcd" },
    ...overrides,
  } as ApiKeyJson;
}

describe("user API keys", () => {
  it("judge validity by the app's clock, reporting manually-revoked first (spec §4, the client reading)", async () => {
    const both = keyJson({ expires_at_millis: T0 + 1_000, manually_revoked_at_millis: T0 });
    const { app, clock } = setup(
      router({
        "GET /users/me": () => json(clientUserJson()),
        "GET /user-api-keys": () =>
          json({ items: [both, keyJson({ expires_at_millis: T0 + 1_000 })], is_paginated: false }),
      }),
    );
    const [revoked, expiring] = await (await app.getUser({ or: "throw" })).listApiKeys();
    expect([revoked!.whyInvalid(), expiring!.whyInvalid(), expiring!.isValid()]).toEqual([
      "manually-revoked",
      null,
      true,
    ]);
    clock.advance(1_000);
    expect(expiring!.isValid()).toBe(true);
    clock.advance(1);
    expect([revoked!.whyInvalid(), expiring!.whyInvalid()]).toEqual(["manually-revoked", "expired"]);
    expect(revoked!.value).toEqual({ lastFour: "abcd" });
  });

  it("revoke() and update() PATCH the key with its owner in the query", async () => {
    const { app, calls } = setup(
      router({
        "GET /users/me": () => json(clientUserJson()),
        "POST /user-api-keys": () => json({ ...keyJson(), value: "sk_user_full" }),
        [`PATCH /user-api-keys/${KEY_ID}`]: () => json(keyJson()),
      }),
    );
    const user = await app.getUser({ or: "throw" });
    const created = await user.createApiKey({ description: "ci", expiresAt: new Date(T0 + 5), isPublic: true });
    expect(created.value).toBe("sk_user_full");
    expect(bodyOf(calls[1]!)).toEqual({ description: "ci", expires_at_millis: T0 + 5, is_public: true, user_id: "me" });
    await created.update({ description: "renamed", expiresAt: null });
    await created.revoke();
    expect(new URL(calls[2]!.url).searchParams.get("user_id")).toBe(TEST_USER_ID);
    expect(calls.slice(2).map(bodyOf)).toEqual([
      { description: "renamed", expires_at_millis: null },
      { revoked: true },
    ]);
  });
});

describe("magic links", () => {
  it("send the nonce back as a result and turn REDIRECT_URL_NOT_WHITELISTED into an error result", async () => {
    const { app } = setup(
      router({
        "POST /auth/otp/send-sign-in-code": (c) =>
          (bodyOf(c) as { email: string }).email.startsWith("ok")
            ? json({ nonce: "n".repeat(39) })
            : knownError("REDIRECT_URL_NOT_WHITELISTED", 400),
      }),
    );
    expect(await app.sendMagicLinkEmail("ok@example.com", { callbackUrl: "http://localhost/cb" })).toEqual({
      status: "ok",
      data: { nonce: "n".repeat(39) },
    });
    const refused = await app.sendMagicLinkEmail("no@example.com", { callbackUrl: "http://localhost/cb" });
    expect(refused.status === "error" && refused.error.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
  });

  it("need a callbackUrl when there is no page origin to resolve the handler against", async () => {
    const { app, calls } = setup(router({}));
    await expect(app.sendMagicLinkEmail("a@example.com")).rejects.toThrow(/callbackUrl/);
    await expect(app.sendForgotPasswordEmail("a@example.com")).rejects.toThrow(/callbackUrl/);
    expect(calls).toEqual([]);
  });

  it("store the tokens and go to after-sign-up for a new user, after-sign-in otherwise (spec §4)", async () => {
    const navigated: string[] = [];
    const tokens = { access_token: unsignedToken(claims(T0, 600_000)), refresh_token: "rt-2", user_id: TEST_USER_ID };
    const { app } = setup(
      router({
        "POST /auth/otp/sign-in": (c) =>
          json({ ...tokens, is_new_user: (bodyOf(c) as { code: string }).code === "new" }),
      }),
      navigated,
    );
    expect(await app.signInWithMagicLink("new")).toEqual({ status: "ok", data: undefined });
    expect(await app.signInWithMagicLink("old")).toEqual({ status: "ok", data: undefined });
    expect(navigated).toEqual(["/welcome", "/welcome-back"]);
    expect(await app.getRefreshToken()).toBe("rt-2");
  });

  it("return VERIFICATION_ERROR codes as error results", async () => {
    const { app } = setup(router({ "POST /auth/otp/sign-in": () => knownError("VERIFICATION_CODE_EXPIRED", 400) }));
    const result = await app.signInWithMagicLink("old", { noRedirect: true });
    expect(result.status === "error" && result.error.code).toBe("VERIFICATION_CODE_EXPIRED");
  });
});

describe("the signed-in user's verification and password", () => {
  it("sendVerificationEmail needs a primary email (spec §5) and returns EMAIL_ALREADY_VERIFIED instead of throwing", async () => {
    let primaryEmail: string | null = null;
    const { app, calls } = setup(
      router({
        "GET /users/me": () => json(clientUserJson({ primary_email: primaryEmail })),
        "POST /contact-channels/send-verification-code": () => knownError("EMAIL_ALREADY_VERIFIED", 409),
      }),
    );
    await expect(
      (await app.getUser({ or: "throw" })).sendVerificationEmail({ callbackUrl: "http://localhost/v" }),
    ).rejects.toThrow(/primary email/);
    expect(calls).toHaveLength(1);
    primaryEmail = "ada@example.com";
    const error = await (
      await app.getUser({ or: "throw" })
    ).sendVerificationEmail({ callbackUrl: "http://localhost/v" });
    expect(error?.code).toBe("EMAIL_ALREADY_VERIFIED");
    expect(bodyOf(calls[2]!)).toEqual({ email: "ada@example.com", callback_url: "http://localhost/v" });
  });

  it("updatePassword returns PASSWORD_CONFIRMATION_MISMATCH, and throws USER_DOES_NOT_HAVE_PASSWORD", async () => {
    const { app } = setup(
      router({
        "GET /users/me": () => json(clientUserJson()),
        "POST /auth/password/update": (c) =>
          (bodyOf(c) as { old_password: string }).old_password === "wrong"
            ? knownError("PASSWORD_CONFIRMATION_MISMATCH", 400)
            : knownError("USER_DOES_NOT_HAVE_PASSWORD", 400),
      }),
    );
    const user = await app.getUser({ or: "throw" });
    expect((await user.updatePassword({ oldPassword: "wrong", newPassword: "next-password" }))?.code).toBe(
      "PASSWORD_CONFIRMATION_MISMATCH",
    );
    await expect(user.updatePassword({ oldPassword: "x", newPassword: "next-password" })).rejects.toMatchObject({
      code: "USER_DOES_NOT_HAVE_PASSWORD",
    });
  });
});
