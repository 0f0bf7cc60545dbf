import { base32Encode, otpauthUri, verifyTotpCode } from "../crypto/totp.ts";
import type { AppContext } from "./app-context.ts";

/**
 * Setting up TOTP MFA (spec §1 "multi-factor authentication with TOTP"; protocol.md §7.4). The provider only stores a
 * secret (user.update({ totpMultiFactorSecret })); making the secret, showing it and checking the person's first code
 * happen on the client. The published kit does this inside its React pages; here it is an SDK call so the secret comes
 * from the app's injected random source and the check reads the app's clock (design rule 5), and UI code stays free
 * of both.
 */

/** 20 bytes (160 bits), the HMAC-SHA-1 key length RFC 4226 §4 recommends and authenticator apps expect. */
export const TOTP_SECRET_BYTES = 20;

export interface TotpSetup {
  /** The secret to save with user.update({ totpMultiFactorSecret }) once a code has been verified. */
  readonly secret: Uint8Array;
  /** The secret as authenticator apps take it when typed in (RFC 4648 base32, no padding). */
  readonly secretBase32: string;
  /** The otpauth:// URI a QR code would carry. */
  readonly otpauthUri: string;
  /** Whether `code` is what an authenticator app holding this secret shows now (one step of drift allowed). */
  verify(code: string): Promise<boolean>;
}

export interface TotpSetupOptions {
  /** Who the secret is for, as the authenticator app lists it (usually the email). */
  accountName: string;
  /** The service name the app shows next to it (usually the project's display name). */
  issuer?: string;
}

export function createTotpSetup(ctx: AppContext, options: TotpSetupOptions): TotpSetup {
  const secret = ctx.transport.random.bytes(TOTP_SECRET_BYTES);
  return {
    secret,
    secretBase32: base32Encode(secret),
    otpauthUri: otpauthUri({ secret, accountName: options.accountName, issuer: options.issuer }),
    verify: (code) => verifyTotpCode(secret, code, ctx.clock.now()),
  };
}
