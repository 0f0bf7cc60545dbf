import { describe, expect } from "vitest";
import type { Target } from "../targets.ts";
import { browserApp, currentTotp, strongNeeds, TOTP_SECRET } from "./strong-auth-support.ts";
import { expectKnownError, itIf, needs, PASSWORD, signedUpClient } from "./support.ts";

/** TOTP MFA through our SDK (protocol.md §7.4; spec §4 "MFA", §8 "MFA"): password sign-in, then the mfa page. */
export function mfaCases(getTarget: () => Target): void {
  const withTotp = itIf(strongNeeds.emulator(getTarget()));
  const withClock = itIf(strongNeeds.emulator(getTarget()), needs.controls(getTarget()));

  async function mfaUser(target: Target) {
    const signedUp = await signedUpClient(target);
    await signedUp.user.update({ totpMultiFactorSecret: TOTP_SECRET });
    expect((await signedUp.app.getUser({ or: "throw" })).isMultiFactorRequired).toBe(true);
    return signedUp;
  }

  describe("MFA", () => {
    withTotp(
      "password sign-in keeps the attempt code and goes to the mfa route; a wrong TOTP is a result, the right one signs in",
      async () => {
        const target = getTarget();
        const { email, userId } = await mfaUser(target);
        const { app, browser } = browserApp(target);
        const error = await expectKnownError(
          app.signInWithCredential({ email, password: PASSWORD }),
          "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
          400,
        );
        expect(browser.navigated).toEqual(["/handler/mfa"]);
        const attempt = app.getPendingMfaAttemptCode();
        expect(attempt).toBe(error.details.attempt_code);
        expect(await app.getUser()).toBeNull();

        const right = await currentTotp(target, userId);
        const wrong = await app.signInWithMfa(right === "000000" ? "111111" : "000000", attempt!);
        expect(wrong.status === "error" && [wrong.error.code, wrong.error.message]).toEqual([
          "INVALID_TOTP_CODE",
          "The TOTP code is invalid. Please try again.",
        ]);
        expect(await app.signInWithMfa(right, attempt!)).toEqual({ status: "ok", data: undefined });
        expect(browser.navigated.at(-1)).toBe("/signed-in");
        expect(app.getPendingMfaAttemptCode()).toBeNull();
        expect((await app.getUser({ or: "throw" })).id).toBe(userId);
        const reused = await app.signInWithMfa(right, attempt!, { noRedirect: true });
        expect(reused.status === "error" && reused.error.code).toBe("VERIFICATION_CODE_ALREADY_USED");
      },
    );

    withClock("expires the attempt by the provider's clock: VERIFICATION_CODE_EXPIRED", async () => {
      const target = getTarget();
      const { email, userId } = await mfaUser(target);
      const { app } = browserApp(target);
      const error = await expectKnownError(
        app.signInWithCredential({ email, password: PASSWORD }),
        "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
        400,
      );
      await target.controls!.advanceClock(10 * 60_000);
      const late = await app.signInWithMfa(await currentTotp(target, userId), String(error.details.attempt_code), {
        noRedirect: true,
      });
      expect(late.status === "error" && late.error.code).toBe("VERIFICATION_CODE_EXPIRED");
    });

    withTotp("turning the secret off signs in without MFA again", async () => {
      const target = getTarget();
      const { email, user } = await mfaUser(target);
      await user.update({ totpMultiFactorSecret: null });
      const { app } = browserApp(target);
      expect(await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).toEqual({
        status: "ok",
        data: undefined,
      });
    });
  });
}
