/**
 * Constant-time comparison, so key and hash checks do not leak how many leading characters matched. Lengths are
 * compared without an early return as well (the loop always runs over the longer input).
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * Compares UTF-16 code units, read in place (no copies: every request's key is checked). UTF-8 would not do: it maps
 * every lone surrogate to U+FFFD, so "k\ud800", "k\udbff" and "k\ufffd" would all compare equal; code units keep
 * distinct strings distinct. Past the shorter string's end charCodeAt gives NaN, which `| 0` makes 0, as a missing
 * byte is 0 in constantTimeEqual; the lengths differ then, which decides.
 */
export function constantTimeEqualStrings(a: string, b: string): boolean {
  const length = Math.max(a.length, b.length);
  let diff = a.length ^ b.length;
  for (let i = 0; i < length; i++) diff |= (a.charCodeAt(i) | 0) ^ (b.charCodeAt(i) | 0);
  return diff === 0;
}
