import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { KnownErrorException } from "../../errors/known-error.ts";
import { asClient, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { mfaSignIn } from "./mfa.ts";
import { passwordSignIn } from "./password-auth.ts";
import { currentTotp } from "./totp.ts";
import { codeLifetimes } from "./verification-codes.ts";

/** TOTP multi-factor sign-in (protocol.md §7.4; spec §4 "MFA"): the attempt a refused sign-in leaves, the TOTP window. */

const SECRET = "MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=";
const PASSWORD = "correct horse battery";
const STEP = 30_000;

async function mfaUser(seam: OpSeam) {
  return seam.addUser({ primary_email: "m@example.com", password: PASSWORD, totp_secret_base64: SECRET });
}

/** A password sign-in of an MFA user: refused with MULTI_FACTOR_AUTHENTICATION_REQUIRED; its attempt code. */
async function attempt(seam: OpSeam): Promise<string> {
  const out = await seam.run(asClient(), (ctx) => passwordSignIn(ctx, { email: "m@example.com", password: PASSWORD }));
  if (out.ok || !("code" in out.error) || out.error.code !== "MULTI_FACTOR_AUTHENTICATION_REQUIRED")
    throw new Error("expected MULTI_FACTOR_AUTHENTICATION_REQUIRED");
  return String((out.error as KnownErrorException).details?.attempt_code);
}

describe("MFA", () => {
  it("a password sign-in of a user with a TOTP secret opens no session and leaves only a 10-minute attempt code behind", async () => {
    const seam = opSeam();
    const user = await mfaUser(seam);
    seam.clock.advance(1_000);
    const before = seam.snapshot();
    const code = await attempt(seam);
    const after = seam.snapshot();
    const changed = Object.keys(after.tables).filter(
      (t) => JSON.stringify(after.tables[t]) !== JSON.stringify(before.tables[t]),
    );
    expect(changed).toEqual(["verificationCodes"]);
    expect([...seam.tables.verificationCodes.values()].find((c) => c.code === code)).toMatchObject({
      purpose: "mfa_attempt",
      data: { user_id: user.id, is_new_user: false },
      expiresAtMillis: seam.clock.now() + codeLifetimes.mfa_attempt,
    });
  });

  it("the attempt code and the current TOTP sign in once; a wrong TOTP is INVALID_TOTP_CODE and keeps the attempt usable", async () => {
    const seam = opSeam();
    const user = await mfaUser(seam);
    const code = await attempt(seam);
    const right = currentTotp(SECRET, seam.clock.now());
    const wrong = right === "000000" ? "111111" : "000000";
    expect(
      (
        await seam.refuses((ctx) => mfaSignIn(ctx, seam.project(), { totp: wrong, code }), "INVALID_TOTP_CODE")
      ).messageFor("stack"),
    ).toBe("The TOTP code is invalid. Please try again.");
    expect(await seam.ok((ctx) => mfaSignIn(ctx, seam.project(), { totp: right, code }))).toMatchObject({
      user_id: user.id,
      is_new_user: false,
    });
    await seam.refuses(
      (ctx) => mfaSignIn(ctx, seam.project(), { totp: right, code }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("accepts a code from one step either side of the emulator's clock and no further, wherever the clock is", async () => {
    const seam = opSeam();
    await mfaUser(seam);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10 * STEP }), fc.integer({ min: -3, max: 3 }), async (wait, steps) => {
        seam.clock.advance(wait);
        const code = await attempt(seam);
        const now = seam.clock.now();
        const totp = currentTotp(SECRET, now + steps * STEP);
        // Six digits can repeat across steps: a code also counts when it equals one inside the window.
        const inWindow = Math.abs(steps) <= 1 || [-1, 0, 1].some((k) => currentTotp(SECRET, now + k * STEP) === totp);
        const out = await seam.run((ctx) => mfaSignIn(ctx, seam.project(), { totp, code }));
        expect(out.ok ? "signed in" : "code" in out.error && out.error.code).toBe(
          inWindow ? "signed in" : "INVALID_TOTP_CODE",
        );
      }),
      { numRuns: 30 },
    );
  });

  it("an attempt lives 10 minutes by the clock; an unknown one is VERIFICATION_CODE_NOT_FOUND", async () => {
    const seam = opSeam();
    await mfaUser(seam);
    const code = await attempt(seam);
    seam.clock.advance(codeLifetimes.mfa_attempt);
    const totp = currentTotp(SECRET, seam.clock.now());
    await seam.refuses((ctx) => mfaSignIn(ctx, seam.project(), { totp, code }), "VERIFICATION_CODE_EXPIRED");
    await seam.refuses((ctx) => mfaSignIn(ctx, seam.project(), { totp, code: "nope" }), "VERIFICATION_CODE_NOT_FOUND");
  });
});
