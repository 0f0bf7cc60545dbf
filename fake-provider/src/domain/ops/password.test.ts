import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SEND_RESET_CODE_ANSWER } from "@authsim/sdk/contract";
import { api, client, expectJson, expectKnownError, freshEmail, newProvider, providerWithDevConfig, refreshGrant, server, signUp, type SignedUp, type TestProvider } from "../../test-support/api.ts";
import { as, CALLBACK, latestCode } from "../../test-support/account.ts";

/** Password reset, update and set (spec §4 "Password reset"; protocol.md §6.2, §7.3). */

let provider: TestProvider;
let user: SignedUp;
beforeEach(async () => {
  provider = newProvider();
  user = await signUp(provider);
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const signIn = (email: string, password: string) => api(provider, "/auth/password/sign-in", { headers: client(), json: { email, password } });
const sendResetCode = (email: string, callback_url = CALLBACK) => api(provider, "/auth/password/send-reset-code", { headers: client(), json: { email, callback_url } });

describe("password reset", () => {
  it("emails a link whose code can be checked, then sets the new password once", async () => {
    expect(await expectJson(await sendResetCode(user.email))).toEqual({ success: SEND_RESET_CODE_ANSWER });
    const email = provider.outbox.latest({ to: user.email, kind: "password_reset" })!;
    expect(email.link).toBe(`${CALLBACK}?code=${email.code}`);
    const code = email.code!;

    const check = await api(provider, "/auth/password/reset/check-code", { headers: client(), json: { code } });
    expect(await expectJson(check)).toEqual({ is_code_valid: true });
    const reset = await api(provider, "/auth/password/reset", { headers: client(), json: { code, password: "a brand new password" } });
    expect(await expectJson(reset)).toEqual({ success: true });

    await expectKnownError(await signIn(user.email, user.password), "EMAIL_PASSWORD_MISMATCH", 400);
    await expectJson(await signIn(user.email, "a brand new password"));
    const again = await api(provider, "/auth/password/reset", { headers: client(), json: { code, password: "yet another one" } });
    await expectKnownError(again, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("answers the same for an address nobody has, and sends nothing", async () => {
    const unknown = freshEmail("nobody");
    const known = await sendResetCode(user.email);
    const missing = await sendResetCode(unknown);
    expect(missing.status).toBe(known.status);
    expect(await missing.text()).toBe(await known.text());
    expect(provider.outbox.list({ to: unknown })).toEqual([]);
  });

  it("keeps the code usable when the new password breaks a rule (the request leaves no trace)", async () => {
    await expectJson(await sendResetCode(user.email));
    const code = latestCode(provider, user.email, "password_reset");
    const short = await api(provider, "/auth/password/reset", { headers: client(), json: { code, password: "short" } });
    expect((await expectKnownError(short, "PASSWORD_TOO_SHORT", 400)).details).toEqual({ min_length: 8 });
    await expectJson(await api(provider, "/auth/password/reset", { headers: client(), json: { code, password: "long enough now" } }));
  });

  it("expires reset codes after an hour (VERIFICATION_CODE_EXPIRED) and rejects unknown ones (VERIFICATION_CODE_NOT_FOUND)", async () => {
    await expectJson(await sendResetCode(user.email));
    const code = latestCode(provider, user.email, "password_reset");
    provider.clock.advance(3_600_000);
    await expectKnownError(await api(provider, "/auth/password/reset/check-code", { headers: client(), json: { code } }), "VERIFICATION_CODE_EXPIRED", 400);
    const unknown = await api(provider, "/auth/password/reset", { headers: client(), json: { code: "a".repeat(45), password: "long enough" } });
    await expectKnownError(unknown, "VERIFICATION_CODE_NOT_FOUND", 404);
  });

  it("refuses an untrusted callback with REDIRECT_URL_NOT_WHITELISTED, whoever the address belongs to", async () => {
    await expectKnownError(await sendResetCode(user.email, "https://evil.example.net/reset"), "REDIRECT_URL_NOT_WHITELISTED", 400);
    await expectKnownError(await sendResetCode(freshEmail(), "https://evil.example.net/reset"), "REDIRECT_URL_NOT_WHITELISTED", 400);
  });

  it("answers PASSWORD_AUTHENTICATION_NOT_ENABLED when the project has no password sign-in", async () => {
    const closed = providerWithDevConfig({ credential_enabled: false });
    const response = await api(closed, "/auth/password/send-reset-code", { headers: client(), json: { email: freshEmail(), callback_url: CALLBACK } });
    await expectKnownError(response, "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
  });
});

describe("password update", () => {
  const update = (u: SignedUp, old_password: string, new_password: string) =>
    api(provider, "/auth/password/update", { headers: as(u), json: { old_password, new_password } });

  it("changes the password when the old one is right, ending the user's other sessions", async () => {
    const other = await expectJson<{ refresh_token: string }>(await signIn(user.email, user.password));
    expect(await expectJson(await update(user, user.password, "the next password"))).toEqual({ success: true });
    await expectJson(await signIn(user.email, "the next password"));
    await expectKnownError(await refreshGrant(provider, other.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    await expectJson(await refreshGrant(provider, user.refresh_token));
  });

  it("answers PASSWORD_CONFIRMATION_MISMATCH for a wrong old password", async () => {
    const body = await expectKnownError(await update(user, "not the password", "the next password"), "PASSWORD_CONFIRMATION_MISMATCH", 400);
    expect(body.error).toBe("Passwords do not match.");
    await expectJson(await signIn(user.email, user.password));
  });

  it("checks the new password's rules (PASSWORD_TOO_LONG reports maxLength)", async () => {
    const body = await expectKnownError(await update(user, user.password, "x".repeat(71)), "PASSWORD_TOO_LONG", 400);
    expect(body.details).toEqual({ maxLength: 70 });
  });

  it("answers USER_DOES_NOT_HAVE_PASSWORD for a user without one, and upstream's SCHEMA_ERROR on auth.user without a user", async () => {
    const created = await expectJson<{ id: string }>(await api(provider, "/users", { headers: server(), json: { primary_email: freshEmail() } }), 201);
    const session = await expectJson<{ access_token: string }>(await api(provider, "/auth/sessions", { headers: server(), json: { user_id: created.id } }));
    await expectKnownError(await update({ ...user, access_token: session.access_token }, "whatever", "the next password"), "USER_DOES_NOT_HAVE_PASSWORD", 400);
    const anonymous = await api(provider, "/auth/password/update", { headers: client(), json: { old_password: "a", new_password: "b" } });
    const body = await expectKnownError(anonymous, "SCHEMA_ERROR", 400);
    expect(body.error).toBe("Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined");
  });
});

describe("password set", () => {
  it("gives a password to a user without one, after which it signs in", async () => {
    const email = freshEmail();
    const created = await expectJson<{ id: string }>(await api(provider, "/users", { headers: server(), json: { primary_email: email, primary_email_auth_enabled: true } }), 201);
    const session = await expectJson<{ access_token: string }>(await api(provider, "/auth/sessions", { headers: server(), json: { user_id: created.id } }));
    const set = await api(provider, "/auth/password/set", { headers: client({ accessToken: session.access_token }), json: { password: "a first password" } });
    expect(await expectJson(set)).toEqual({ success: true });
    await expectJson(await signIn(email, "a first password"));
  });

  it("refuses a user who already has one (plain 400) and short passwords (PASSWORD_TOO_SHORT)", async () => {
    const response = await api(provider, "/auth/password/set", { headers: as(user), json: { password: "another password" } });
    expect([response.status, await response.text()]).toEqual([400, "User already has a password set."]);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    const created = await expectJson<{ id: string }>(await api(provider, "/users", { headers: server(), json: {} }), 201);
    const session = await expectJson<{ access_token: string }>(await api(provider, "/auth/sessions", { headers: server(), json: { user_id: created.id } }));
    await expectKnownError(await api(provider, "/auth/password/set", { headers: client({ accessToken: session.access_token }), json: { password: "short" } }), "PASSWORD_TOO_SHORT", 400);
  });
});
