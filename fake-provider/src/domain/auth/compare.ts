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
 * Compares UTF-16 code units, two bytes each. UTF-8 (TextEncoder) would not do: it maps every lone surrogate to
 * U+FFFD, so "k\ud800", "k\udbff" and "k\ufffd" would all compare equal; code units keep distinct strings distinct.
 */
function codeUnits(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 * i] = unit >> 8;
    bytes[2 * i + 1] = unit & 0xff;
  }
  return bytes;
}

export function constantTimeEqualStrings(a: string, b: string): boolean {
  return constantTimeEqual(codeUnits(a), codeUnits(b));
}
