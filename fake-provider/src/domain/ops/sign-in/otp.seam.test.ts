import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asClient, devSeedWith, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { checkSignInCode, otpSignIn, sendSignInCode } from "./otp.ts";
import { updateAdminProject } from "../projects/project-admin.ts";
import { codeLifetimes, MAX_CODE_ATTEMPTS } from "./verification-codes.ts";

/** One-time code and magic-link sign-in (protocol.md §7.2): who an address signs in as, the code's life and its guesses. */

const CALLBACK = "http://localhost:3000/handler/magic-link-callback";

/** Sends a sign-in code to `email` and returns the answer's nonce with the emailed code and OTP. */
async function send(seam: OpSeam, email: string) {
  const { nonce } = await seam.ok((ctx) => sendSignInCode(ctx, seam.project(), { email, callback_url: CALLBACK }));
  const mail = [...seam.tables.emails.values()].filter((e) => e.to.includes(email) && e.kind === "magic_link").at(-1)!;
  return { nonce, code: mail.code!, otp: mail.otp!, link: mail.link! };
}
const verifiedUser = (seam: OpSeam, email: string) =>
  seam.addUser({ primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true });

describe("sendSignInCode", () => {
  it("emails a 45-character code as a link, its first 6 characters as the OTP, and answers the other 39 as the nonce", async () => {
    const seam = opSeam();
    const { nonce, code, otp, link } = await send(seam, "new@example.com");
    expect([code.length, nonce, otp]).toEqual([45, code.slice(6), code.slice(0, 6).toUpperCase()]);
    expect(link).toBe(`${CALLBACK}?code=${code}`);
  });

  it("answers alike for a verified existing address and an unknown one; an unverified sign-in address is USER_EMAIL_ALREADY_EXISTS", async () => {
    const seam = opSeam();
    await verifiedUser(seam, "known@example.com");
    await seam.addUser({ primary_email: "unverified@example.com", primary_email_auth_enabled: true });
    expect((await send(seam, "known@example.com")).nonce).toHaveLength(39);
    expect((await send(seam, "unknown@example.com")).nonce).toHaveLength(39);
    const error = await seam.refuses(
      (ctx) => sendSignInCode(ctx, seam.project(), { email: "unverified@example.com", callback_url: CALLBACK }),
      "USER_EMAIL_ALREADY_EXISTS",
    );
    expect(error.details).toEqual({ email: "unverified@example.com", would_work_if_email_was_verified: true });
  });

  it("refuses an untrusted callback, magic links off (plain 403), and a new address with sign-up closed; nothing is sent", async () => {
    const seam = opSeam();
    await seam.refuses(
      (ctx) => sendSignInCode(ctx, seam.project(), { email: "a@example.com", callback_url: "https://evil.example/cb" }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    const off = opSeam({ seed: devSeedWith({ magic_link_enabled: false }) });
    expect(
      (
        await off.refuses(
          (ctx) => sendSignInCode(ctx, off.project(), { email: "a@example.com", callback_url: CALLBACK }),
          403,
        )
      ).message,
    ).toBe("OTP sign-in is not enabled for this project");
    const closed = opSeam({ seed: devSeedWith({ sign_up_enabled: false }) });
    await closed.refuses(
      (ctx) => sendSignInCode(ctx, closed.project(), { email: "a@example.com", callback_url: CALLBACK }),
      "SIGN_UP_NOT_ENABLED",
    );
  });
});

describe("otpSignIn", () => {
  it("signs a new address up with the link's code (verified, used for sign-in, OTP on); the code then is used", async () => {
    const seam = opSeam();
    const { code } = await send(seam, "new@example.com");
    const out = await seam.ok(asClient(), (ctx) => otpSignIn(ctx, code));
    expect(out.is_new_user).toBe(true);
    expect(seam.tables.users.get(out.user_id)).toMatchObject({
      primaryEmail: "new@example.com",
      primaryEmailVerified: true,
      primaryEmailAuthEnabled: true,
      otpAuthEnabled: true,
    });
    await seam.refuses(asClient(), (ctx) => otpSignIn(ctx, code), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("signs an existing verified user in with OTP + nonce in any letter case; checking the code does not use it", async () => {
    const seam = opSeam();
    const user = await verifiedUser(seam, "known@example.com");
    const { nonce, otp } = await send(seam, "known@example.com");
    await seam.ok(asClient(), (ctx) => checkSignInCode(ctx, otp + nonce));
    expect(await seam.ok(asClient(), (ctx) => otpSignIn(ctx, otp.toLowerCase() + nonce))).toMatchObject({
      user_id: user.id,
      is_new_user: false,
    });
    expect(seam.tables.users.get(user.id)?.otpAuthEnabled).toBe(true);
  });

  it("upgrades the caller's anonymous user; a normal signed-in caller gets the address's own user", async () => {
    const seam = opSeam();
    const anon = await seam.addUser({ is_anonymous: true });
    const first = await send(seam, "up@example.com");
    expect(await seam.ok(asClient(anon), (ctx) => otpSignIn(ctx, first.code))).toMatchObject({
      user_id: anon.id,
      is_new_user: true,
    });
    expect(seam.tables.users.get(anon.id)?.isAnonymous).toBe(false);
    const normal = await seam.addUser({ primary_email: "normal@example.com" });
    const second = await send(seam, "other@example.com");
    expect((await seam.ok(asClient(normal), (ctx) => otpSignIn(ctx, second.code))).user_id).not.toBe(normal.id);
  });

  it("honours a code until exactly 10 minutes after sending, then answers VERIFICATION_CODE_EXPIRED", async () => {
    const seam = opSeam();
    const a = await send(seam, "a@example.com");
    const b = await send(seam, "b@example.com");
    expect(codeLifetimes.otp_sign_in).toBe(10 * 60_000);
    seam.clock.advance(10 * 60_000 - 1);
    expect((await seam.run(asClient(), (ctx) => otpSignIn(ctx, a.code))).ok).toBe(true);
    seam.clock.advance(1);
    await seam.refuses(asClient(), (ctx) => otpSignIn(ctx, b.code), "VERIFICATION_CODE_EXPIRED");
  });

  it(`counts wrong OTPs against the nonce though each is refused: the right one works after fewer than ${MAX_CODE_ATTEMPTS}, never after more`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: MAX_CODE_ATTEMPTS + 2 }), async (wrongGuesses) => {
        const seam = opSeam();
        const { nonce, otp } = await send(seam, "guess@example.com");
        const wrong = (otp === "AAAAAA" ? "BBBBBB" : "AAAAAA") + nonce;
        for (let i = 0; i < wrongGuesses; i++) {
          const out = await seam.run(asClient(), (ctx) => otpSignIn(ctx, wrong));
          expect(!out.ok && "code" in out.error && out.error.code).toBe("VERIFICATION_CODE_NOT_FOUND");
        }
        const right = await seam.run(asClient(), (ctx) => otpSignIn(ctx, otp + nonce));
        if (wrongGuesses < MAX_CODE_ATTEMPTS) expect(right.ok).toBe(true);
        else
          expect(!right.ok && "code" in right.error && right.error.code).toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
      }),
      { numRuns: 12 },
    );
  });

  it("answers SIGN_UP_NOT_ENABLED at sign-in for a new address when sign-up closed after sending, and spends the code as the real handler does", async () => {
    const seam = opSeam();
    const { code } = await send(seam, "late@example.com");
    await seam.ok((ctx) => updateAdminProject(ctx, seam.project(), { config: { sign_up_enabled: false } }));
    await seam.refusesSpendingCode(asClient(), (ctx) => otpSignIn(ctx, code), "SIGN_UP_NOT_ENABLED");
    await seam.refuses(asClient(), (ctx) => otpSignIn(ctx, code), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("a code sent before magic links were turned off still checks and signs in, as the real handlers only refuse sending", async () => {
    const seam = opSeam();
    const { code } = await send(seam, "before@example.com");
    await seam.ok((ctx) => updateAdminProject(ctx, seam.project(), { config: { magic_link_enabled: false } }));
    await seam.ok(asClient(), (ctx) => checkSignInCode(ctx, code));
    expect((await seam.ok(asClient(), (ctx) => otpSignIn(ctx, code))).is_new_user).toBe(true);
  });

  it("makes the new user in the country the code was sent from, not the sign-in's", async () => {
    const seam = opSeam();
    // The end user's location is what the HTTP layer reads from the request's headers (api/http/end-user.ts).
    await seam.run((ctx) => sendSignInCode(ctx, seam.project(), { email: "geo@example.com", callback_url: CALLBACK }), {
      ip: "203.0.113.7",
      countryCode: "CA",
    });
    const sent = [...seam.tables.emails.values()].at(-1)!;
    const out = await seam.run(asClient(), (ctx) => otpSignIn(ctx, sent.code!), {
      ip: "198.51.100.9",
      countryCode: "US",
    });
    expect(out.ok && seam.tables.users.get(out.value.user_id)?.countryCode).toBe("CA");
  });
});
