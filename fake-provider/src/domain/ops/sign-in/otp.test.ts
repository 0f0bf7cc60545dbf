import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  freshEmail,
  newProvider,
  providerWithDevConfig,
  server,
  type TestProvider,
} from "../../../test-support/api.ts";
import { CALLBACK } from "../../../test-support/account.ts";

/**
 * One-time code and magic-link sign-in over HTTP (protocol.md §6.2, §7.2): the email, the answers, the plain 403, the
 * request's location. The rules (who signs in, expiry, guesses) are in otp.seam.test.ts.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

interface OtpSignIn {
  access_token: string;
  refresh_token: string;
  user_id: string;
  is_new_user: boolean;
}

const send = (email: string, p: TestProvider = provider, callback_url = CALLBACK) =>
  api(p, "/auth/otp/send-sign-in-code", { headers: client(), json: { email, callback_url } });
const signIn = (code: string, headers = client()) => api(provider, "/auth/otp/sign-in", { headers, json: { code } });

async function sentCode(email: string): Promise<{ nonce: string; code: string; otp: string; link: string }> {
  const { nonce } = await expectJson<{ nonce: string }>(await send(email));
  const mail = provider.outbox.latest({ to: email, kind: "magic_link" })!;
  return { nonce, code: mail.code!, otp: mail.otp!, link: mail.link! };
}

/** A user whose sign-in address is verified (OTP signs such users in). */
async function verifiedUser(): Promise<{ id: string; email: string }> {
  const email = freshEmail();
  const created = await expectJson<{ id: string }>(
    await api(provider, "/users", {
      headers: server(),
      json: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true },
    }),
    201,
  );
  return { id: created.id, email };
}

describe("send-sign-in-code", () => {
  it("answers the nonce and emails the link with the whole code and the 6-character OTP", async () => {
    const email = freshEmail();
    const { nonce, code, otp, link } = await sentCode(email);
    expect(code).toMatch(/^[0-9a-z]{45}$/);
    expect(nonce).toBe(code.slice(6));
    expect(otp).toBe(code.slice(0, 6).toUpperCase());
    expect(link).toBe(`${CALLBACK}?code=${code}`);
    const mail = provider.outbox.latest({ to: email })!;
    expect(mail.html).toContain(otp);
    expect(mail.text).toContain(link);
  });

  it("is a plain 403 when magic links are off, and SIGN_UP_NOT_ENABLED for a new address when sign-up is closed", async () => {
    const noOtp = providerWithDevConfig({ magic_link_enabled: false });
    const response = await send(freshEmail(), noOtp);
    expect(response.status).toBe(403);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    const closed = providerWithDevConfig({ sign_up_enabled: false });
    await expectKnownError(await send(freshEmail(), closed), "SIGN_UP_NOT_ENABLED", 400);
  });
});

describe("otp sign-in", () => {
  it("signs an existing user in with OTP + nonce, in any case", async () => {
    const existing = await verifiedUser();
    const { nonce, otp } = await sentCode(existing.email);
    const check = await api(provider, "/auth/otp/sign-in/check-code", {
      headers: client(),
      json: { code: otp + nonce },
    });
    expect(await expectJson(check)).toEqual({ is_code_valid: true });
    const body = await expectJson<OtpSignIn>(await signIn(otp.toLowerCase() + nonce));
    expect(body).toMatchObject({ user_id: existing.id, is_new_user: false });
  });
});

describe("the request context of a new OTP user", () => {
  it("is the send-sign-in-code request's: the country it came from, not the sign-in's", async () => {
    const email = freshEmail();
    const sent = await expectJson<{ nonce: string }>(
      await api(provider, "/auth/otp/send-sign-in-code", {
        headers: client(),
        raw: { "x-forwarded-for": "203.0.113.7", "x-vercel-ip-country": "CA" },
        json: { email, callback_url: CALLBACK },
      }),
    );
    const otp = provider.outbox.latest({ to: email, kind: "magic_link" })!.otp!;
    const signedIn = await expectJson<OtpSignIn>(
      await api(provider, "/auth/otp/sign-in", {
        headers: client(),
        raw: { "x-forwarded-for": "198.51.100.9", "x-vercel-ip-country": "US" },
        json: { code: otp + sent.nonce },
      }),
    );
    expect(signedIn.is_new_user).toBe(true);
    const user = await expectJson<{ country_code: string | null }>(
      await api(provider, `/users/${signedIn.user_id}`, { headers: server() }),
    );
    expect(user.country_code).toBe("CA");
  });
});
