import { describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { currentCode, enableTotp, withToken } from "../../../test-support/strong-auth.ts";
import { currentTotp } from "./totp.ts";

/** TOTP multi-factor sign-in over HTTP (protocol.md §7.4; spec §8 "MFA"): the answers and the control endpoint. The rules: mfa.seam.test.ts. */

const SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=";

async function mfaUser(provider: TestProvider) {
  const user = await signUp(provider);
  await enableTotp(provider, user.access_token, SECRET);
  return user;
}

async function attemptCode(provider: TestProvider, email: string, password: string): Promise<string> {
  const body = await expectKnownError(
    await api(provider, "/auth/password/sign-in", { headers: client(), json: { email, password } }),
    "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    400,
  );
  return String(body.details?.attempt_code);
}

describe("MFA", () => {
  it("turns requires_totp_mfa on with a secret, and password sign-in answers MULTI_FACTOR_AUTHENTICATION_REQUIRED", async () => {
    const provider = newProvider();
    const user = await mfaUser(provider);
    expect(await expectJson(await api(provider, "/users/me", { headers: withToken(user.access_token) }))).toMatchObject(
      { requires_totp_mfa: true },
    );
    const code = await attemptCode(provider, user.email, user.password);
    expect(code).toMatch(/^[0-9a-z]{45}$/);
  });

  it("signs in with the attempt code and the current TOTP (is_new_user false); the attempt is single-use", async () => {
    const provider = newProvider();
    const user = await mfaUser(provider);
    const code = await attemptCode(provider, user.email, user.password);
    const totp = await currentCode(provider, user.user_id);
    expect(totp).toBe(currentTotp(SECRET, provider.clock.now()));
    const tokens = await expectJson(
      await api(provider, "/auth/mfa/sign-in", { headers: client(), json: { type: "totp", totp, code } }),
    );
    expect(tokens).toMatchObject({ user_id: user.user_id, is_new_user: false });
    await expectKnownError(
      await api(provider, "/auth/mfa/sign-in", { headers: client(), json: { type: "totp", totp, code } }),
      "VERIFICATION_CODE_ALREADY_USED",
      409,
    );
  });

  it("expires attempt codes (VERIFICATION_CODE_EXPIRED) and rejects unknown ones (VERIFICATION_CODE_NOT_FOUND)", async () => {
    const provider = newProvider();
    const user = await mfaUser(provider);
    const code = await attemptCode(provider, user.email, user.password);
    provider.clock.advance(10 * 60_000);
    const totp = await currentCode(provider, user.user_id);
    await expectKnownError(
      await api(provider, "/auth/mfa/sign-in", { headers: client(), json: { type: "totp", totp, code } }),
      "VERIFICATION_CODE_EXPIRED",
      400,
    );
    await expectKnownError(
      await api(provider, "/auth/mfa/sign-in", { headers: client(), json: { type: "totp", totp, code: "nope" } }),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
    await expectKnownError(
      await api(provider, "/auth/mfa/sign-in", { headers: client(), json: { type: "sms", totp, code } }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("asks magic-link sign-in for MFA too", async () => {
    const provider = newProvider();
    const user = await mfaUser(provider);
    await expectJson(
      await api(provider, `/users/${user.user_id}`, {
        method: "PATCH",
        headers: server(),
        json: { primary_email_verified: true },
      }),
    );
    await expectJson(
      await api(provider, "/auth/otp/send-sign-in-code", {
        headers: client(),
        json: { email: user.email, callback_url: "http://localhost:3000/cb" },
      }),
    );
    const link = provider.outbox.latest({ to: user.email, kind: "magic_link" })!;
    await expectKnownError(
      await api(provider, "/auth/otp/sign-in", { headers: client(), json: { code: link.code } }),
      "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
      400,
    );
  });

  it("turns MFA off with a null secret; the control endpoint then answers 404", async () => {
    const provider = newProvider();
    const user = await mfaUser(provider);
    await expectJson(
      await api(provider, "/users/me", {
        method: "PATCH",
        headers: withToken(user.access_token),
        json: { totp_secret_base64: null },
      }),
    );
    await expectJson(
      await api(provider, "/auth/password/sign-in", {
        headers: client(),
        json: { email: user.email, password: user.password },
      }),
    );
    expect((await request(provider, `/__emulator/users/${user.user_id}/totp`)).status).toBe(404);
  });
});
