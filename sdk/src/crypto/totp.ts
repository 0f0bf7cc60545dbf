import { Secret, TOTP } from "otpauth";
import { TOTP_PARAMETERS } from "../contract/areas/mfa.ts";

/**
 * RFC 6238 time-based one-time passwords with the provider's parameters (protocol.md §7.4: SHA-1, 6 digits, 30 s), for
 * setting up MFA: the secret is shown as RFC 4648 base32 (what authenticator apps take) and in an otpauth:// URI, and
 * the person's first code is checked here before the secret is saved, as the published kit's setup page does. The
 * algorithm is the otpauth library's (the fake provider verifies with the same one); time is always the caller's (the
 * app's clock, design rule 5). The functions are async so a Web Crypto implementation could replace it unchanged.
 */

/** Authenticator apps drift a little: one step either side is accepted, as the provider does (RFC 6238 §5.2). */
export const TOTP_WINDOW_STEPS = 1;

function totpFor(
  secret: Uint8Array,
  digits: number = TOTP_PARAMETERS.digits,
  label?: { accountName: string; issuer?: string | undefined },
): TOTP {
  // A copy: otpauth keeps the buffer, and the caller's array may be reused or zeroed later.
  const buffer = secret.slice().buffer;
  return new TOTP({
    secret: new Secret({ buffer }),
    algorithm: TOTP_PARAMETERS.algorithm,
    digits,
    period: TOTP_PARAMETERS.periodSeconds,
    ...(label ? { label: label.accountName, issuer: label.issuer ?? "", issuerInLabel: Boolean(label.issuer) } : {}),
  });
}

/** RFC 4648 §6 base32 without padding (authenticator apps and otpauth URIs omit it). */
export function base32Encode(bytes: Uint8Array): string {
  return new Secret({ buffer: bytes.slice().buffer }).base32;
}

/** RFC 4648 base32 to bytes, as an authenticator app reads a typed-in secret; throws on characters outside the alphabet. */
export function base32Decode(text: string): Uint8Array {
  return Secret.fromBase32(text).bytes;
}

/** The code an authenticator app shows at `timeMillis`. */
export async function totpCode(
  secret: Uint8Array,
  timeMillis: number,
  digits: number = TOTP_PARAMETERS.digits,
): Promise<string> {
  return totpFor(secret, digits).generate({ timestamp: timeMillis });
}

/** Whether `code` is the code of the step at `timeMillis`, or of a step next to it. */
export async function verifyTotpCode(secret: Uint8Array, code: string, timeMillis: number): Promise<boolean> {
  const token = code.replace(/\s+/g, "");
  if (!new RegExp(`^\\d{${TOTP_PARAMETERS.digits}}$`).test(token)) return false;
  return totpFor(secret).validate({ token, timestamp: timeMillis, window: TOTP_WINDOW_STEPS }) !== null;
}

/** The Key Uri Format authenticator apps read (otpauth://totp/Issuer:account?issuer=…&secret=…). */
export function otpauthUri(options: { secret: Uint8Array; accountName: string; issuer?: string | undefined }): string {
  return totpFor(options.secret, TOTP_PARAMETERS.digits, options).toString();
}
