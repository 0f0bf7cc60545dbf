import { constants } from "@authsim/sdk/contract";
import { randomBase32, uuid } from "@authsim/sdk/runtime";
import { knownError } from "../../errors/known-error.ts";
import type { VerificationCodeRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

/**
 * Verification codes, one mechanism for every flow (spec §4 "Verification codes"; protocol.md §7.2): expiry by the
 * injected clock, single use, and a bound on guesses. The four errors: not found 404, expired 400, already used 409,
 * max attempts 400.
 */
export type CodePurpose = VerificationCodeRecord["purpose"];

/** Lifetimes by purpose. Upstream uses 7 days by default and shorter windows for sign-in codes (inferred). */
export const codeLifetimes: Record<CodePurpose, number> = {
  email_verification: 7 * 24 * 60 * 60 * 1000,
  password_reset: 60 * 60 * 1000,
  otp_sign_in: 10 * 60 * 1000,
  team_invitation: 7 * 24 * 60 * 60 * 1000,
  mfa_attempt: 10 * 60 * 1000,
  passkey_registration: 5 * 60 * 1000,
  passkey_authentication: 5 * 60 * 1000,
  cli_login: 2 * 60 * 60 * 1000,
  // The unsubscribe link of a non-transactional email (domain/ops/emails/email-unsubscribe.ts).
  email_unsubscribe: 30 * 24 * 60 * 60 * 1000,
  // An integration's project transfer link (domain/ops/integrations/integration-transfer.ts): one hour, as upstream's.
  integration_project_transfer: 60 * 60 * 1000,
};

/** Failed guesses against one nonce before every code sharing it is dead (protocol.md §7.2). */
export const MAX_CODE_ATTEMPTS = 20;
const OTP_LENGTH = 6;

export function createCode(
  ctx: OpContext,
  input: {
    projectId: string;
    purpose: CodePurpose;
    data: Record<string, unknown>;
    expiresInMillis?: number;
    fixedOtp?: string | null;
  },
): VerificationCodeRecord {
  const random = randomBase32(ctx.random, constants.randomIdBits);
  const record: VerificationCodeRecord = {
    id: uuid(ctx.random),
    projectId: input.projectId,
    purpose: input.purpose,
    // A fixed OTP (domain/ops/sign-in/fixed-otp.ts) replaces the shown half only; the nonce half stays random.
    code: input.fixedOtp ? input.fixedOtp.toLowerCase() + random.slice(OTP_LENGTH) : random,
    data: input.data,
    createdAtMillis: ctx.now,
    expiresAtMillis: ctx.now + (input.expiresInMillis ?? codeLifetimes[input.purpose]),
    usedAtMillis: null,
    attemptCount: 0,
  };
  ctx.tables.verificationCodes.set(record.id, record);
  return record;
}

/** The 6-character code shown in sign-in emails, and the nonce the client keeps (the rest of the code). */
export function otpOf(code: string): { otp: string; nonce: string } {
  return { otp: code.slice(0, OTP_LENGTH).toUpperCase(), nonce: code.slice(OTP_LENGTH) };
}

/**
 * Finds a usable code of a purpose, or throws the matching verification error. `consume` spends it (spendCode); the
 * check-code endpoints only look. A wrong OTP counts against every code sharing its nonce.
 */
export function redeemCode(
  ctx: OpContext,
  projectId: string,
  purpose: CodePurpose,
  given: string,
  options: { consume: boolean },
): VerificationCodeRecord {
  const code = given.trim().toLowerCase();
  const found = ctx.tables.verificationCodes.lookup("code", `${projectId}\u0000${code}`);
  if (!found || found.purpose !== purpose) {
    countFailedAttempt(ctx, projectId, purpose, code);
    throw knownError("VERIFICATION_CODE_NOT_FOUND");
  }
  if (found.attemptCount >= MAX_CODE_ATTEMPTS) throw knownError("VERIFICATION_CODE_MAX_ATTEMPTS_REACHED");
  if (found.usedAtMillis !== null) throw knownError("VERIFICATION_CODE_ALREADY_USED");
  if (found.expiresAtMillis <= ctx.now) throw knownError("VERIFICATION_CODE_EXPIRED");
  if (options.consume) spendCode(ctx, found);
  return found;
}

/**
 * Marks a code used, for good: the real service commits the code's use before the route's own handler runs, so a
 * handler that then refuses (a password too short, sign-up closed, a passkey that does not verify) leaves the code
 * spent. Checks the real service makes before that commit (its handlers' `validate` step, e.g. the TOTP of an MFA
 * sign-in) come before this call.
 */
export function spendCode(ctx: OpContext, code: VerificationCodeRecord): void {
  const usedAtMillis = ctx.now;
  ctx.keepOnFailure((tables) => {
    const current = tables.verificationCodes.get(code.id);
    if (current && current.usedAtMillis === null) tables.verificationCodes.set(code.id, { ...current, usedAtMillis });
  });
}

/** A wrong guess counts against every code sharing its nonce, even though the request itself fails. */
function countFailedAttempt(ctx: OpContext, projectId: string, purpose: CodePurpose, code: string): void {
  if (code.length <= OTP_LENGTH) return;
  const nonce = code.slice(OTP_LENGTH);
  ctx.keepOnFailure((tables) => {
    for (const record of [...tables.verificationCodes.values()]) {
      if (
        record.projectId === projectId &&
        record.purpose === purpose &&
        record.code.length === code.length &&
        record.code.endsWith(nonce)
      ) {
        tables.verificationCodes.set(record.id, { ...record, attemptCount: record.attemptCount + 1 });
      }
    }
  });
}

export function deleteCodesWhere(ctx: OpContext, predicate: (c: VerificationCodeRecord) => boolean): void {
  for (const record of [...ctx.tables.verificationCodes.values()])
    if (predicate(record)) ctx.tables.verificationCodes.delete(record.id);
}
