import { Secret, TOTP } from "otpauth";
import { TOTP_PARAMETERS } from "@authsim/sdk/contract";
import { base64ToBytes } from "@authsim/sdk/runtime";

/**
 * RFC 6238 codes for a user's `totp_secret_base64` (protocol.md §7.4: SHA-1, 6 digits, 30 s), computed by the
 * otpauth library at the emulator's clock, never the wall clock: tests move time and the codes follow.
 */

/** One step either side is accepted, as authenticator apps drift by a few seconds (RFC 6238 §5.2). */
export const TOTP_WINDOW_STEPS = 1;

function totpFor(secretBase64: string): TOTP {
  const bytes = base64ToBytes(secretBase64);
  return new TOTP({
    algorithm: TOTP_PARAMETERS.algorithm,
    digits: TOTP_PARAMETERS.digits,
    period: TOTP_PARAMETERS.periodSeconds,
    secret: new Secret({ buffer: bytes.buffer }),
  });
}

/** The code an authenticator app shows at `nowMillis`. */
export function currentTotp(secretBase64: string, nowMillis: number): string {
  return totpFor(secretBase64).generate({ timestamp: nowMillis });
}

/** The step the code belongs to (relative to now), or null when it matches none in the window. */
export function checkTotp(secretBase64: string, code: string, nowMillis: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  return totpFor(secretBase64).validate({ token: code, timestamp: nowMillis, window: TOTP_WINDOW_STEPS });
}

/** When the current code stops being the current one. */
export function totpStepEndsAt(nowMillis: number): number {
  const period = TOTP_PARAMETERS.periodSeconds * 1000;
  return (Math.floor(nowMillis / period) + 1) * period;
}
