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
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";

/**
 * Email + password and anonymous sign-up / sign-in over HTTP (protocol.md §4.1, §6.2, §7.1, §7.8): the tokens they
 * answer, the schema, and what the caller's headers change. The ops' rules are in password-auth.seam.test.ts.
 */

/** Every claim of protocol.md §4.1; the published SDK rejects a token missing any of them. */
const CLAIMS = [
  "sub",
  "iat",
  "exp",
  "iss",
  "aud",
  "project_id",
  "branch_id",
  "refresh_token_id",
  "role",
  "name",
  "email",
  "email_verified",
  "selected_team_id",
  "signed_up_at",
  "is_anonymous",
  "is_restricted",
  "restricted_reason",
  "requires_totp_mfa",
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

  it("rejects a malformed email with SCHEMA_ERROR", async () => {
    await expectKnownError(await signUpRaw("not-an-email", "long enough"), "SCHEMA_ERROR", 400);
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
    expect(claimsOf(upgraded.access_token)).toMatchObject({
      aud: DEV.id,
      is_anonymous: false,
      is_restricted: false,
      email,
    });
    const me = await expectJson(
      await api(provider, "/users/me", { headers: client({ accessToken: upgraded.access_token }) }),
    );
    expect(me).toMatchObject({
      id: anon.user_id,
      primary_email: email,
      has_password: true,
      is_anonymous: false,
      restricted_reason: null,
    });
    await expectJson(await signInRaw(email, "long enough"));
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
