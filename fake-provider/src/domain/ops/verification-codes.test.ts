import { describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider } from "../../app.ts";
import { KnownErrorException } from "../errors/known-error.ts";
import type { Tables } from "../store/store.ts";
import type { OpContext } from "./context.ts";
import { codeLifetimes, createCode, MAX_CODE_ATTEMPTS, otpOf, redeemCode } from "./verification-codes.ts";

function setup() {
  const clock = manualClock(Date.UTC(2026, 0, 1));
  const provider = createFakeProvider({ clock, ids: seededRandom("codes") });
  /** Runs `f` as one request would: atomically, with writes kept on failure re-applied after the rollback. */
  const run = async <R>(f: (ctx: OpContext) => R): Promise<R> => {
    const durable: ((t: Tables) => void)[] = [];
    try {
      return await provider.store.transact((tables) =>
        f({ tables, now: provider.clock.now(), random: seededRandom(String(durable.length)), settings: provider.settings, keepOnFailure: (w) => (durable.push(w), w(tables)) }),
      );
    } catch (error) {
      if (durable.length) await provider.store.transact((t) => durable.forEach((w) => w(t)));
      throw error;
    }
  };
  return { provider, run };
}

const codeOf = (error: unknown) => (error instanceof KnownErrorException ? `${error.code} ${error.status}` : String(error));

describe("verification codes", () => {
  it("issues 45-character lowercase base32 codes whose first 6 characters are the OTP", async () => {
    const { run } = setup();
    const record = await run((ctx) => createCode(ctx, { projectId: dev.id, purpose: "otp_sign_in", data: {} }));
    expect(record.code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    const { otp, nonce } = otpOf(record.code);
    expect(otp).toBe(record.code.slice(0, 6).toUpperCase());
    expect(otp + nonce).toBe(record.code.slice(0, 6).toUpperCase() + record.code.slice(6));
  });

  it("redeems a code once, case-insensitively, then answers VERIFICATION_CODE_ALREADY_USED (409)", async () => {
    const { run } = setup();
    const { code } = await run((ctx) => createCode(ctx, { projectId: dev.id, purpose: "email_verification", data: { email: "a@b.co" } }));
    const used = await run((ctx) => redeemCode(ctx, dev.id, "email_verification", code.toUpperCase(), { consume: true }));
    expect(used.data).toEqual({ email: "a@b.co" });
    await expect(run((ctx) => redeemCode(ctx, dev.id, "email_verification", code, { consume: true })).catch(codeOf)).resolves.toBe("VERIFICATION_CODE_ALREADY_USED 409");
  });

  it("checking a code does not use it up", async () => {
    const { run } = setup();
    const { code } = await run((ctx) => createCode(ctx, { projectId: dev.id, purpose: "password_reset", data: {} }));
    await run((ctx) => redeemCode(ctx, dev.id, "password_reset", code, { consume: false }));
    await run((ctx) => redeemCode(ctx, dev.id, "password_reset", code, { consume: true }));
  });

  it("answers VERIFICATION_CODE_NOT_FOUND (404) for unknown codes, another purpose or another project", async () => {
    const { run } = setup();
    const { code } = await run((ctx) => createCode(ctx, { projectId: dev.id, purpose: "password_reset", data: {} }));
    for (const attempt of [
      () => run((ctx) => redeemCode(ctx, dev.id, "password_reset", "x".repeat(45), { consume: true })),
      () => run((ctx) => redeemCode(ctx, dev.id, "email_verification", code, { consume: true })),
      () => run((ctx) => redeemCode(ctx, "internal", "password_reset", code, { consume: true })),
    ]) {
      await expect(attempt().catch(codeOf)).resolves.toBe("VERIFICATION_CODE_NOT_FOUND 404");
    }
  });

  it("expires by the injected clock with VERIFICATION_CODE_EXPIRED (400)", async () => {
    const { provider, run } = setup();
    const { code } = await run((ctx) => createCode(ctx, { projectId: dev.id, purpose: "otp_sign_in", data: {} }));
    provider.clock.advance(codeLifetimes.otp_sign_in - 1);
    await run((ctx) => redeemCode(ctx, dev.id, "otp_sign_in", code, { consume: false }));
    provider.clock.advance(1);
    await expect(run((ctx) => redeemCode(ctx, dev.id, "otp_sign_in", code, { consume: true })).catch(codeOf)).resolves.toBe("VERIFICATION_CODE_EXPIRED 400");
  });

  it("counts wrong OTPs against the nonce, surviving the failed request, until VERIFICATION_CODE_MAX_ATTEMPTS_REACHED", async () => {
    const { provider, run } = setup();
    const { code } = await run((ctx) => createCode(ctx, { projectId: dev.id, purpose: "otp_sign_in", data: {} }));
    const wrong = (code.startsWith("aaaaaa") ? "bbbbbb" : "aaaaaa") + code.slice(6);
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) {
      await expect(run((ctx) => redeemCode(ctx, dev.id, "otp_sign_in", wrong, { consume: true })).catch(codeOf)).resolves.toBe("VERIFICATION_CODE_NOT_FOUND 404");
    }
    expect([...provider.store.read.verificationCodes.values()][0]?.attemptCount).toBe(MAX_CODE_ATTEMPTS);
    await expect(run((ctx) => redeemCode(ctx, dev.id, "otp_sign_in", code, { consume: true })).catch(codeOf)).resolves.toBe("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED 400");
  });
});
