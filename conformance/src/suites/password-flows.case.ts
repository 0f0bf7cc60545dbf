import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { accountNeeds, CALLBACKS, codeOfLink, emailsTo, lastSeq, nextEmail } from "./account-support.ts";
import {
  clientApp,
  clientWithTokens,
  expectKnownError,
  itIf,
  needs,
  PASSWORD,
  serverApp,
  signedUpClient,
  uniqueEmail,
} from "./support.ts";

/**
 * Password reset, update and set through our SDK (spec §4 "Password reset"; protocol.md §6.2, §7.3), with the reset
 * code read from the emulator's outbox.
 */
const RESET_CODE_LIFETIME_MILLIS = 60 * 60 * 1000;

/** A user made by the server without a password, signed in through a server-made session. */
async function passwordlessClient(target: Target) {
  const email = uniqueEmail("passwordless");
  const server = serverApp(target);
  const created = await server.createUser({
    primaryEmail: email,
    primaryEmailAuthEnabled: true,
    primaryEmailVerified: true,
  });
  const app = clientWithTokens(target, await (await server.createSession({ userId: created.id })).getTokens());
  return { app, email, user: await app.getUser({ or: "throw" }) };
}

export function passwordFlowCases(getTarget: () => Target): void {
  const withOutbox = itIf(accountNeeds.outbox(getTarget()));
  const withOutboxAndClock = itIf(accountNeeds.outbox(getTarget()), needs.controls(getTarget()));

  describe("password reset", () => {
    withOutbox("emails a code that can be checked, then sets a new password once", async () => {
      const target = getTarget();
      const { email } = await signedUpClient(target);
      const app = clientApp(target);
      expect(await app.sendForgotPasswordEmail(email, { callbackUrl: CALLBACKS.passwordReset })).toEqual({
        status: "ok",
        data: undefined,
      });
      const code = codeOfLink((await nextEmail(target, email, "password_reset")).link);
      expect(await app.verifyPasswordResetCode(code)).toEqual({ status: "ok", data: undefined });
      expect(await app.resetPassword({ code, password: "a-new-password" })).toEqual({ status: "ok", data: undefined });

      const old = await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      expect(old.status === "error" && old.error.code).toBe("EMAIL_PASSWORD_MISMATCH");
      expect((await app.signInWithCredential({ email, password: "a-new-password", noRedirect: true })).status).toBe(
        "ok",
      );
      const reused = await app.resetPassword({ code, password: "yet-another-one" });
      expect(reused.status === "error" && reused.error.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    });

    withOutbox("answers alike for an address nobody has, and sends it nothing", async () => {
      const target = getTarget();
      const nobody = uniqueEmail("nobody");
      expect(await clientApp(target).sendForgotPasswordEmail(nobody, { callbackUrl: CALLBACKS.passwordReset })).toEqual(
        { status: "ok", data: undefined },
      );
      expect(await emailsTo(target, nobody)).toEqual([]);
    });

    it("reports an unknown code as VERIFICATION_CODE_NOT_FOUND in the result", async () => {
      const result = await clientApp(getTarget()).verifyPasswordResetCode("0".repeat(45));
      expect(result.status === "error" && result.error.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    });

    withOutboxAndClock("expires the code after an hour (VERIFICATION_CODE_EXPIRED)", async () => {
      const target = getTarget();
      const { email } = await signedUpClient(target);
      const app = clientApp(target);
      await app.sendForgotPasswordEmail(email, { callbackUrl: CALLBACKS.passwordReset });
      const code = (await nextEmail(target, email, "password_reset")).code!;
      await target.controls!.advanceClock(RESET_CODE_LIFETIME_MILLIS);
      const result = await app.resetPassword({ code, password: "a-new-password" });
      expect(result.status === "error" && result.error.code).toBe("VERIFICATION_CODE_EXPIRED");
    });

    it("refuses an untrusted callback with REDIRECT_URL_NOT_WHITELISTED (thrown: not one of this call's errors)", async () => {
      await expectKnownError(
        clientApp(getTarget()).sendForgotPasswordEmail(uniqueEmail(), {
          callbackUrl: "https://evil.example.net/reset",
        }),
        "REDIRECT_URL_NOT_WHITELISTED",
        400,
      );
    });
  });

  describe("password update and set", () => {
    it("updates with the right old password and ends the user's other sessions", async () => {
      const target = getTarget();
      const { app, user, email } = await signedUpClient(target);
      const other = clientApp(target);
      expect((await other.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
      expect(await user.updatePassword({ oldPassword: PASSWORD, newPassword: "password-456" })).toBeUndefined();
      // The other session's refresh token is gone (its access token lives on until it expires, as JWTs do).
      expect(
        await clientWithTokens(target, { accessToken: null, refreshToken: await other.getRefreshToken() }).getUser(),
      ).toBeNull();
      expect((await app.getUser())?.id).toBe(user.id);
      expect(
        (await clientApp(target).signInWithCredential({ email, password: "password-456", noRedirect: true })).status,
      ).toBe("ok");
    });

    it("returns PASSWORD_CONFIRMATION_MISMATCH for a wrong old password and PASSWORD_TOO_SHORT for a short new one", async () => {
      const { user } = await signedUpClient(getTarget());
      expect((await user.updatePassword({ oldPassword: "not-it-at-all", newPassword: "password-456" }))?.code).toBe(
        "PASSWORD_CONFIRMATION_MISMATCH",
      );
      const short = await user.updatePassword({ oldPassword: PASSWORD, newPassword: "short" });
      expect(short?.code).toBe("PASSWORD_TOO_SHORT");
      expect(short?.details).toEqual({ min_length: 8 });
    });

    it("throws USER_DOES_NOT_HAVE_PASSWORD for a user without one, who can set one instead", async () => {
      const target = getTarget();
      const { user, email } = await passwordlessClient(target);
      expect(user.hasPassword).toBe(false);
      await expectKnownError(
        user.updatePassword({ oldPassword: "anything-at-all", newPassword: "password-456" }),
        "USER_DOES_NOT_HAVE_PASSWORD",
        400,
      );
      expect((await user.setPassword({ password: "short" }))?.code).toBe("PASSWORD_TOO_SHORT");
      expect(await user.setPassword({ password: "a-first-password" })).toBeUndefined();
      expect(
        (await clientApp(target).signInWithCredential({ email, password: "a-first-password", noRedirect: true }))
          .status,
      ).toBe("ok");
    });

    it("sets a password through the server for a server user", async () => {
      const target = getTarget();
      const { email } = await passwordlessClient(target);
      const server = serverApp(target);
      const [found] = await server.listUsers({ query: email });
      // Through the users endpoint, which applies no password rules upstream: a short one is set as well.
      expect(await found!.setPassword({ password: "short" })).toBeUndefined();
      expect(await found!.setPassword({ password: "server-set-password" })).toBeUndefined();
      expect(
        (await clientApp(target).signInWithCredential({ email, password: "server-set-password", noRedirect: true }))
          .status,
      ).toBe("ok");
    });
  });

  describe("sign-up verification", () => {
    withOutbox("sends nothing when the caller opts out with noVerificationCallback", async () => {
      const target = getTarget();
      const email = uniqueEmail("no-verify");
      const before = await lastSeq(target, email);
      await clientApp(target).signUpWithCredential({
        email,
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      expect((await emailsTo(target, email)).filter((e) => e.seq > before)).toEqual([]);
    });
  });
}
