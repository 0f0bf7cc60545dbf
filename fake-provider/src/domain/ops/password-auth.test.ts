import { decodeProtectedHeader } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  START_MILLIS,
  anonymousSignUp,
  api,
  claimsOf,
  client,
  expectJson,
  expectKnownError,
  freshEmail,
  newProvider,
  providerWithDevConfig,
  refreshGrant,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";

/** Email + password and anonymous sign-up / sign-in (protocol.md §4.1, §6.2, §7.1, §7.8). */

/** Every claim of protocol.md §4.1; the published SDK rejects a token missing any of them. */
const CLAIMS = [
  "sub", "iat", "exp", "iss", "aud", "project_id", "branch_id", "refresh_token_id", "role", "name", "email", "email_verified",
  "selected_team_id", "signed_up_at", "is_anonymous", "is_restricted", "restricted_reason", "requires_totp_mfa",
].sort();

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const signUpRaw = (email: string, password: string, p: TestProvider = provider) =>
  api(p, "/auth/password/sign-up", { headers: client(), json: { email, password } });
const signInRaw = (email: string, password: string, p: TestProvider = provider) =>
  api(p, "/auth/password/sign-in", { headers: client(), json: { email, password } });

describe("password sign-up", () => {
  it("answers tokens whose claims are exactly those of protocol.md §4.1", async () => {
    const user = await signUp(provider, { email: "Ada@Example.com" });
    const claims = claimsOf(user.access_token);
    expect(Object.keys(claims).sort()).toEqual(CLAIMS);
    const iat = START_MILLIS / 1000;
    expect(claims).toEqual({
      sub: user.user_id,
      iat,
      exp: iat + 600,
      iss: `http://localhost:8102/api/v1/projects/${DEV.id}`,
      aud: DEV.id,
      project_id: DEV.id,
      branch_id: "main",
      refresh_token_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      role: "authenticated",
      name: null,
      email: "Ada@Example.com",
      email_verified: false,
      selected_team_id: null,
      signed_up_at: iat,
      is_anonymous: false,
      is_restricted: false,
      restricted_reason: null,
      requires_totp_mfa: false,
    });
  });

  it("signs with ES256 and a 12-character kid, without typ", async () => {
    const { access_token } = await signUp(provider);
    const header = decodeProtectedHeader(access_token);
    expect(header).toEqual({ alg: "ES256", kid: expect.stringMatching(/^.{12}$/) });
  });

  it("hands out a 45-character lowercase Crockford base32 refresh token", async () => {
    const { refresh_token } = await signUp(provider);
    expect(refresh_token).toMatch(/^[0-9abcdefghjkmnpqrstvwxyz]{45}$/);
  });

  it("rejects a 7-character password with PASSWORD_TOO_SHORT and min_length 8", async () => {
    const body = await expectKnownError(await signUpRaw(freshEmail(), "1234567"), "PASSWORD_TOO_SHORT", 400);
    expect(body.details).toEqual({ min_length: 8 });
    await expectJson(await signUpRaw(freshEmail(), "12345678"));
  });

  it("rejects a 71-character password with PASSWORD_TOO_LONG and maxLength 70", async () => {
    const body = await expectKnownError(await signUpRaw(freshEmail(), "x".repeat(71)), "PASSWORD_TOO_LONG", 400);
    expect(body.details).toEqual({ maxLength: 70 });
    await expectJson(await signUpRaw(freshEmail(), "x".repeat(70)));
  });

  it("rejects an email already used, in any letter case, with USER_EMAIL_ALREADY_EXISTS naming it normalized", async () => {
    await signUp(provider, { email: "grace@example.com" });
    const body = await expectKnownError(await signUpRaw("Grace@EXAMPLE.com", "another password"), "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(body.details).toEqual({ email: "grace@example.com", would_work_if_email_was_verified: false });
    expect(body.error).toBe('A user with email "grace@example.com" already exists.');
  });

  it("rejects a malformed email with SCHEMA_ERROR", async () => {
    await expectKnownError(await signUpRaw("not-an-email", "long enough"), "SCHEMA_ERROR", 400);
  });

  it("creates a new user when signed in as a normal user", async () => {
    const first = await signUp(provider);
    const response = await api(provider, "/auth/password/sign-up", {
      headers: client({ accessToken: first.access_token }),
      json: { email: freshEmail(), password: "long enough" },
    });
    expect((await expectJson<{ user_id: string }>(response)).user_id).not.toBe(first.user_id);
  });
});

describe("password sign-in", () => {
  it("signs in with the password, matching the email case-insensitively", async () => {
    const user = await signUp(provider, { email: "Linus@Example.com" });
    const body = await expectJson<{ user_id: string; access_token: string; refresh_token: string }>(await signInRaw("linus@example.com", user.password));
    expect(body.user_id).toBe(user.user_id);
    expect(body.refresh_token).not.toBe(user.refresh_token);
    expect(claimsOf(body.access_token).refresh_token_id).not.toBe(claimsOf(user.access_token).refresh_token_id);
  });

  it("rejects a wrong password with EMAIL_PASSWORD_MISMATCH", async () => {
    const user = await signUp(provider);
    await expectKnownError(await signInRaw(user.email, "wrong password"), "EMAIL_PASSWORD_MISMATCH", 400);
  });

  it("rejects an unknown email with the same EMAIL_PASSWORD_MISMATCH", async () => {
    await expectKnownError(await signInRaw("nobody@example.com", "whatever it is"), "EMAIL_PASSWORD_MISMATCH", 400);
  });
});

describe("project configuration", () => {
  it("refuses sign-up with SIGN_UP_NOT_ENABLED (anonymous accounts excepted) but still signs existing users in", async () => {
    const closed = providerWithDevConfig({ sign_up_enabled: false });
    await expectKnownError(await signUpRaw(freshEmail(), "long enough", closed), "SIGN_UP_NOT_ENABLED", 400);
    await expectJson(await api(closed, "/auth/anonymous/sign-up", { method: "POST", headers: client() }));
    const email = freshEmail();
    const created = await api(closed, "/users", {
      headers: { accessType: "server", projectId: DEV.id, secretServerKey: DEV.keys.secret_server_key },
      json: { primary_email: email, password: "long enough" },
    });
    await expectJson(created, 201);
    await expectJson(await signInRaw(email, "long enough", closed));
  });

  it("refuses password sign-up and sign-in with PASSWORD_AUTHENTICATION_NOT_ENABLED, before the password rules", async () => {
    const off = providerWithDevConfig({ credential_enabled: false });
    await expectKnownError(await signUpRaw(freshEmail(), "short", off), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
    await expectKnownError(await signInRaw(freshEmail(), "long enough", off), "PASSWORD_AUTHENTICATION_NOT_ENABLED", 400);
  });

  it("refuses anonymous sign-up with ANONYMOUS_ACCOUNTS_NOT_ENABLED", async () => {
    const off = providerWithDevConfig({ anonymous_enabled: false });
    const response = await api(off, "/auth/anonymous/sign-up", { method: "POST", headers: client() });
    await expectKnownError(response, "ANONYMOUS_ACCOUNTS_NOT_ENABLED", 400);
  });
});

describe("anonymous users", () => {
  it("answers tokens with the anonymous issuer, audience and restriction claims", async () => {
    const anon = await anonymousSignUp(provider);
    const claims = claimsOf(anon.access_token);
    expect(Object.keys(claims).sort()).toEqual(CLAIMS);
    expect(claims).toMatchObject({
      sub: anon.user_id,
      iss: `http://localhost:8102/api/v1/projects-anonymous-users/${DEV.id}`,
      aud: `${DEV.id}:anon`,
      project_id: DEV.id,
      email: null,
      is_anonymous: true,
      is_restricted: true,
      restricted_reason: { type: "anonymous" },
    });
  });

  it("upgrades the same user when signing up with the anonymous user's token", async () => {
    const anon = await anonymousSignUp(provider);
    const email = freshEmail("upgraded");
    const response = await api(provider, "/auth/password/sign-up", {
      family: "hexclave",
      headers: client({ accessToken: anon.access_token, allowAnonymousUser: "true" }),
      json: { email, password: "long enough" },
    });
    const upgraded = await expectJson<{ user_id: string; access_token: string }>(response);
    expect(upgraded.user_id).toBe(anon.user_id);
    expect(claimsOf(upgraded.access_token)).toMatchObject({ aud: DEV.id, is_anonymous: false, is_restricted: false, email });
    const me = await expectJson(await api(provider, "/users/me", { headers: client({ accessToken: upgraded.access_token }) }));
    expect(me).toMatchObject({ id: anon.user_id, primary_email: email, has_password: true, is_anonymous: false, restricted_reason: null });
    await expectJson(await signInRaw(email, "long enough"));
  });

  it("keeps the anonymous session: its refresh token now yields the upgraded user's normal token", async () => {
    const anon = await anonymousSignUp(provider);
    await api(provider, "/auth/password/sign-up", {
      headers: client({ accessToken: anon.access_token, allowAnonymousUser: "true" }),
      json: { email: freshEmail(), password: "long enough" },
    });
    const refreshed = await expectJson<{ access_token: string }>(await refreshGrant(provider, anon.refresh_token));
    expect(claimsOf(refreshed.access_token)).toMatchObject({ sub: anon.user_id, aud: DEV.id, is_anonymous: false });
  });

  it("refuses the upgrade without allow-anonymous-user", async () => {
    const anon = await anonymousSignUp(provider);
    const response = await api(provider, "/auth/password/sign-up", {
      headers: client({ accessToken: anon.access_token }),
      json: { email: freshEmail(), password: "long enough" },
    });
    await expectKnownError(response, "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED", 401);
  });
});
