/**
 * Base64 (RFC 4648 §4, with padding) between bytes or UTF-8 text, on the platform's atob/btoa (web standards: the same
 * in browsers, Node and workers). The emulator and the SDK both store and send base64 (password hashes, TOTP secrets,
 * data-vault values, cookies), so it is written once, here. Base64url for JWS lives with the tokens
 * (fake-provider/src/domain/auth/base64url.ts), as it must refuse non-canonical texts.
 */

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  // In slices: spreading a large array into one call would pass the engine's argument limit.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The bytes `text` encodes; throws (atob's DOMException) when it is not base64 (padding may be left off). */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export const utf8ToBase64 = (text: string): string => bytesToBase64(new TextEncoder().encode(text));

/** The text whose UTF-8 bytes `text` encodes (malformed UTF-8 becomes U+FFFD); throws when it is not base64. */
export const base64ToUtf8 = (text: string): string => new TextDecoder().decode(base64ToBytes(text));
