import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, anonymousSignUp, claimsOf, client, expectJson, expectKnownError, freshEmail, newProvider, providerWithDevConfig, server, signUp, type TestProvider } from "../../test-support/api.ts";
import { as, CALLBACK, serverUser } from "../../test-support/account.ts";
import { MAX_CODE_ATTEMPTS } from "./verification-codes.ts";

/** One-time code and magic-link sign-in (protocol.md §6.2, §7.2). */

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
    await api(provider, "/users", { headers: server(), json: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true } }),
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

  it("answers alike for an existing verified address and an unknown one", async () => {
    const existing = await verifiedUser();
    const a = await send(existing.email);
    const b = await send(freshEmail());
    expect([a.status, b.status]).toEqual([200, 200]);
    const [bodyA, bodyB] = [(await a.json()) as Record<string, string>, (await b.json()) as Record<string, string>];
    expect(Object.keys(bodyA)).toEqual(Object.keys(bodyB));
    expect(bodyA.nonce).toHaveLength(39);
    expect(bodyB.nonce).toHaveLength(39);
  });

  it("refuses an address used for sign-in but not verified with USER_EMAIL_ALREADY_EXISTS (would work once verified)", async () => {
    const user = await signUp(provider);
    const body = await expectKnownError(await send(user.email), "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(body.details).toEqual({ email: user.email, would_work_if_email_was_verified: true });
  });

  it("is a plain 403 when magic links are off, and SIGN_UP_NOT_ENABLED for a new address when sign-up is closed", async () => {
    const noOtp = providerWithDevConfig({ magic_link_enabled: false });
    const response = await send(freshEmail(), noOtp);
    expect(response.status).toBe(403);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    const closed = providerWithDevConfig({ sign_up_enabled: false });
    await expectKnownError(await send(freshEmail(), closed), "SIGN_UP_NOT_ENABLED", 400);
  });

  it("refuses an untrusted callback with REDIRECT_URL_NOT_WHITELISTED", async () => {
    await expectKnownError(await send(freshEmail(), provider, "https://evil.example.net/cb"), "REDIRECT_URL_NOT_WHITELISTED", 400);
  });
});

describe("otp sign-in", () => {
  it("signs a new address up with the link's code: is_new_user, verified, used for auth, OTP on", async () => {
    const email = freshEmail();
    const { code } = await sentCode(email);
    const body = await expectJson<OtpSignIn>(await signIn(code));
    expect(body.is_new_user).toBe(true);
    expect(claimsOf(body.access_token).sub).toBe(body.user_id);
    expect(await serverUser(provider, body.user_id)).toMatchObject({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true, otp_auth_enabled: true });
    await expectKnownError(await signIn(code), "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("signs an existing user in with OTP + nonce, in any case", async () => {
    const existing = await verifiedUser();
    const { nonce, otp } = await sentCode(existing.email);
    const check = await api(provider, "/auth/otp/sign-in/check-code", { headers: client(), json: { code: otp + nonce } });
    expect(await expectJson(check)).toEqual({ is_code_valid: true });
    const body = await expectJson<OtpSignIn>(await signIn(otp.toLowerCase() + nonce));
    expect(body).toMatchObject({ user_id: existing.id, is_new_user: false });
  });

  it("upgrades the signed-in anonymous user instead of making another", async () => {
    const anonymous = await anonymousSignUp(provider);
    const { code } = await sentCode(freshEmail());
    const body = await expectJson<OtpSignIn>(await signIn(code, client({ accessToken: anonymous.access_token, allowAnonymousUser: "true" })));
    expect(body).toMatchObject({ user_id: anonymous.user_id, is_new_user: true });
    expect(await serverUser(provider, anonymous.user_id)).toMatchObject({ is_anonymous: false });
  });

  it("expires codes after 10 minutes with VERIFICATION_CODE_EXPIRED", async () => {
    const { code } = await sentCode(freshEmail());
    provider.clock.advance(10 * 60_000);
    await expectKnownError(await signIn(code), "VERIFICATION_CODE_EXPIRED", 400);
  });

  it(`kills every code of a nonce after ${MAX_CODE_ATTEMPTS} wrong OTPs with VERIFICATION_CODE_MAX_ATTEMPTS_REACHED`, async () => {
    const { nonce, otp } = await sentCode(freshEmail());
    const wrong = otp === "AAAAAA" ? "BBBBBB" : "AAAAAA";
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await expectKnownError(await signIn(wrong + nonce), "VERIFICATION_CODE_NOT_FOUND", 404);
    await expectKnownError(await signIn(otp + nonce), "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", 400);
  });

  it("answers SIGN_UP_NOT_ENABLED at sign-in when sign-up closed after the code was sent", async () => {
    const { code } = await sentCode(freshEmail());
    const project = [...provider.store.read.projects.values()].find((p) => p.config.magic_link_enabled && p.id !== "internal")!;
    await provider.store.transact((t) => t.projects.set(project.id, { ...project, config: { ...project.config, sign_up_enabled: false } }));
    await expectKnownError(await signIn(code), "SIGN_UP_NOT_ENABLED", 400);
  });

  it("keeps an existing signed-in password user's own sessions apart from the OTP user", async () => {
    const user = await signUp(provider);
    const { code } = await sentCode(freshEmail());
    const body = await expectJson<OtpSignIn>(await signIn(code, as(user)));
    expect(body.user_id).not.toBe(user.user_id);
  });
});

describe("the request context of a new OTP user", () => {
  it("is the send-sign-in-code request's: the country it came from, not the sign-in's", async () => {
    const email = freshEmail();
    const sent = await expectJson<{ nonce: string }>(
      await api(provider, "/auth/otp/send-sign-in-code", { headers: client(), raw: { "x-forwarded-for": "203.0.113.7", "x-vercel-ip-country": "CA" }, json: { email, callback_url: CALLBACK } }),
    );
    const otp = provider.outbox.latest({ to: email, kind: "magic_link" })!.otp!;
    const signedIn = await expectJson<OtpSignIn>(await api(provider, "/auth/otp/sign-in", { headers: client(), raw: { "x-forwarded-for": "198.51.100.9", "x-vercel-ip-country": "US" }, json: { code: otp + sent.nonce } }));
    expect(signedIn.is_new_user).toBe(true);
    const user = await expectJson<{ country_code: string | null }>(await api(provider, `/users/${signedIn.user_id}`, { headers: server() }));
    expect(user.country_code).toBe("CA");
  });
});
