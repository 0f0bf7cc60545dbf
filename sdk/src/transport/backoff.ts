import { constants } from "../contract/headers.ts";
import type { RandomSource } from "../runtime/ids.ts";

/** Retry timing of spec §9 / protocol.md §9, computed from an injected RandomSource (design rule 5). */

/** Methods whose network failures are retried: repeating them cannot apply a change twice (protocol.md §9). */
const IDEMPOTENT = new Set(["GET", "PUT", "DELETE", "HEAD", "OPTIONS"]);

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT.has(method.toUpperCase());
}

/** A uniform number in [0, 1) from 32 random bits. */
export function unitInterval(random: RandomSource): number {
  const b = random.bytes(4);
  return (((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!) / 2 ** 32;
}

/** Every wait is clamped: setTimeout cannot wait longer than 2^31 − 1 ms (spec §9, maximum wait). */
export function clampWait(millis: number): number {
  if (!Number.isFinite(millis) || millis < 0) return 0;
  return Math.min(millis, constants.maxWaitMillis);
}

/** Delay before retry `i` (0-based): base 1000 ms × 2^i × jitter, jitter ∈ [0.5, 1.5) (spec §9). */
export function backoffDelay(attemptIndex: number, random: RandomSource): number {
  const span = constants.networkRetryJitterMax - constants.networkRetryJitterMin;
  const jitter = constants.networkRetryJitterMin + unitInterval(random) * span;
  // Whole milliseconds: timers take integers, and a clock advanced by a delay must stay on whole milliseconds.
  return clampWait(Math.floor(constants.networkRetryBaseMillis * 2 ** attemptIndex * jitter));
}

/** Retry-After in seconds (integer or decimal); null when absent or not a number (HTTP dates are not used here). */
export function retryAfterMillis(header: string | null): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? clampWait(seconds * 1000) : null;
}
