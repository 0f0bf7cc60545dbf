import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { opSeam } from "../../../test-support/op-seam.ts";
import {
  codeLifetimes,
  createCode,
  MAX_CODE_ATTEMPTS,
  otpOf,
  redeemCode,
  type CodePurpose,
} from "./verification-codes.ts";

/** Verification codes, the one mechanism of every emailed flow (spec §4; protocol.md §7.2): single use, expiry, guesses. */

const PURPOSES = Object.keys(codeLifetimes) as CodePurpose[];

describe("verification codes", () => {
  it("issues 45-character lowercase base32 codes whose first 6 characters are the OTP", async () => {
    const seam = opSeam();
    const record = await seam.ok((ctx) => createCode(ctx, { projectId: dev.id, purpose: "otp_sign_in", data: {} }));
    expect(record.code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    const { otp, nonce } = otpOf(record.code);
    expect(otp + nonce).toBe(record.code.slice(0, 6).toUpperCase() + record.code.slice(6));
  });

  it("redeems a code once, case-insensitively, then answers VERIFICATION_CODE_ALREADY_USED; checking does not use it", async () => {
    const seam = opSeam();
    const { code } = await seam.ok((ctx) =>
      createCode(ctx, { projectId: dev.id, purpose: "email_verification", data: { email: "a@b.co" } }),
    );
    await seam.ok((ctx) => redeemCode(ctx, dev.id, "email_verification", code, { consume: false }));
    expect(
      (await seam.ok((ctx) => redeemCode(ctx, dev.id, "email_verification", code.toUpperCase(), { consume: true })))
        .data,
    ).toEqual({ email: "a@b.co" });
    await seam.refuses(
      (ctx) => redeemCode(ctx, dev.id, "email_verification", code, { consume: true }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("answers VERIFICATION_CODE_NOT_FOUND for an unknown code, another purpose or another project", async () => {
    const seam = opSeam();
    const { code } = await seam.ok((ctx) =>
      createCode(ctx, { projectId: dev.id, purpose: "password_reset", data: {} }),
    );
    await seam.refuses(
      (ctx) => redeemCode(ctx, dev.id, "password_reset", "x".repeat(45), { consume: true }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await seam.refuses(
      (ctx) => redeemCode(ctx, dev.id, "email_verification", code, { consume: true }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await seam.refuses(
      (ctx) => redeemCode(ctx, INTERNAL_PROJECT_ID, "password_reset", code, { consume: true }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("every purpose's code lives exactly its lifetime by the injected clock, then answers VERIFICATION_CODE_EXPIRED", async () => {
    const seam = opSeam();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...PURPOSES),
        fc.option(fc.integer({ min: 1, max: 10 ** 9 }), { nil: undefined }),
        async (purpose, expiresInMillis) => {
          const { code } = await seam.ok((ctx) =>
            createCode(ctx, { projectId: dev.id, purpose, data: {}, ...(expiresInMillis ? { expiresInMillis } : {}) }),
          );
          seam.clock.advance((expiresInMillis ?? codeLifetimes[purpose]) - 1);
          await seam.ok((ctx) => redeemCode(ctx, dev.id, purpose, code, { consume: false }));
          seam.clock.advance(1);
          await seam.refuses(
            (ctx) => redeemCode(ctx, dev.id, purpose, code, { consume: true }),
            "VERIFICATION_CODE_EXPIRED",
          );
        },
      ),
      { numRuns: 30 },
    );
  });

  it("counts wrong OTPs against every code of the nonce, surviving the refused request, until VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", async () => {
    const seam = opSeam();
    const { code } = await seam.ok((ctx) => createCode(ctx, { projectId: dev.id, purpose: "otp_sign_in", data: {} }));
    const wrong = (code.startsWith("aaaaaa") ? "bbbbbb" : "aaaaaa") + code.slice(6);
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
      const out = await seam.run((ctx) => redeemCode(ctx, dev.id, "otp_sign_in", wrong, { consume: true }));
      expect(!out.ok && "code" in out.error && out.error.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    }
    expect([...seam.tables.verificationCodes.values()][0]?.attemptCount).toBe(MAX_CODE_ATTEMPTS);
    await seam.refuses(
      (ctx) => redeemCode(ctx, dev.id, "otp_sign_in", code, { consume: true }),
      "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
    );
  });
});
