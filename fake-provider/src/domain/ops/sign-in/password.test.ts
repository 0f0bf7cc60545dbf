import { describe, expect, it } from "vitest";
import { SEND_RESET_CODE_ANSWER } from "@authsim/sdk/contract";
import {
  api,
  client,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  freshEmail,
  refreshGrant,
  server,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { as, CALLBACK } from "../../../test-support/account.ts";

/** Password reset, update and set over HTTP (protocol.md §6.2, §7.3): answers, emails, sessions kept. The rules: password.seam.test.ts. */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const signIn = (email: string, password: string) =>
  api(provider, "/auth/password/sign-in", { headers: client(), json: { email, password } });
const sendResetCode = (email: string, callback_url = CALLBACK) =>
  api(provider, "/auth/password/send-reset-code", { headers: client(), json: { email, callback_url } });

describe("password reset", () => {
  it("emails a link whose code can be checked, then sets the new password once", async () => {
    expect(await expectJson(await sendResetCode(user.email))).toEqual({ success: SEND_RESET_CODE_ANSWER });
    const email = provider.outbox.latest({ to: user.email, kind: "password_reset" })!;
    expect(email.link).toBe(`${CALLBACK}?code=${email.code}`);
    const code = email.code!;

    const check = await api(provider, "/auth/password/reset/check-code", { headers: client(), json: { code } });
    expect(await expectJson(check)).toEqual({ is_code_valid: true });
    const reset = await api(provider, "/auth/password/reset", {
      headers: client(),
      json: { code, password: "a brand new password" },
    });
    expect(await expectJson(reset)).toEqual({ success: true });

    await expectKnownError(await signIn(user.email, user.password), "EMAIL_PASSWORD_MISMATCH", 400);
    await expectJson(await signIn(user.email, "a brand new password"));
    const again = await api(provider, "/auth/password/reset", {
      headers: client(),
      json: { code, password: "yet another one" },
    });
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
});

describe("password update", () => {
  const update = (u: SignedUp, old_password: string, new_password: string) =>
    api(provider, "/auth/password/update", { headers: as(u), json: { old_password, new_password } });

  it("changes the password when the old one is right, ending the user's other sessions", async () => {
    const other = await expectJson<{ refresh_token: string }>(await signIn(user.email, user.password));
    expect(await expectJson(await update(user, user.password, "the next password"))).toEqual({ success: true });
    await expectJson(await signIn(user.email, "the next password"));
    await expectKnownError(
      await refreshGrant(provider, other.refresh_token),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
    await expectJson(await refreshGrant(provider, user.refresh_token));
  });

  it("answers USER_DOES_NOT_HAVE_PASSWORD for a user without one, and upstream's SCHEMA_ERROR on auth.user without a user", async () => {
    const created = await expectJson<{ id: string }>(
      await api(provider, "/users", { headers: server(), json: { primary_email: freshEmail() } }),
      201,
    );
    const session = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/sessions", { headers: server(), json: { user_id: created.id } }),
    );
    await expectKnownError(
      await update({ ...user, access_token: session.access_token }, "whatever", "the next password"),
      "USER_DOES_NOT_HAVE_PASSWORD",
      400,
    );
    const anonymous = await api(provider, "/auth/password/update", {
      headers: client(),
      json: { old_password: "a", new_password: "b" },
    });
    const body = await expectKnownError(anonymous, "SCHEMA_ERROR", 400);
    expect(body.error).toBe(
      "Request validation failed on POST /api/v1/auth/password/update:\n  - auth.user must be defined",
    );
  });
});

describe("password set", () => {
  it("gives a password to a user without one, after which it signs in", async () => {
    const email = freshEmail();
    const created = await expectJson<{ id: string }>(
      await api(provider, "/users", {
        headers: server(),
        json: { primary_email: email, primary_email_auth_enabled: true },
      }),
      201,
    );
    const session = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/sessions", { headers: server(), json: { user_id: created.id } }),
    );
    const set = await api(provider, "/auth/password/set", {
      headers: client({ accessToken: session.access_token }),
      json: { password: "a first password" },
    });
    expect(await expectJson(set)).toEqual({ success: true });
    await expectJson(await signIn(email, "a first password"));
  });

  it("refuses a user who already has one (plain 400) and short passwords (PASSWORD_TOO_SHORT)", async () => {
    const response = await api(provider, "/auth/password/set", {
      headers: as(user),
      json: { password: "another password" },
    });
    expect([response.status, await response.text()]).toEqual([400, "User already has a password set."]);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    const created = await expectJson<{ id: string }>(
      await api(provider, "/users", { headers: server(), json: {} }),
      201,
    );
    const session = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/sessions", { headers: server(), json: { user_id: created.id } }),
    );
    await expectKnownError(
      await api(provider, "/auth/password/set", {
        headers: client({ accessToken: session.access_token }),
        json: { password: "short" },
      }),
      "PASSWORD_TOO_SHORT",
      400,
    );
  });
});
