import { bytesToBase64 } from "@authsim/sdk/runtime";

/**
 * Base64url without padding (RFC 4648 §5), as JWS uses it, on the platform's atob/btoa. Strict on decoding: a string
 * that is not the canonical encoding of some bytes is refused (null), so two different token texts never carry the
 * same signature bytes.
 */

// ASCII: no code unit above U+007F.
const ASCII = /^[^\u0080-\uffff]*$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** Base64 made URL-safe: no padding, `-` and `_` for `+` and `/`. */
const urlSafe = (base64: string) => base64.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");

const fromBinary = (binary: string): string => urlSafe(btoa(binary));

export const bytesToBase64Url = (bytes: Uint8Array): string => urlSafe(bytesToBase64(bytes));

/** The UTF-8 bytes of `text`, encoded; ASCII (every JSON this emulator signs, as a rule) skips the byte array. */
export function textToBase64Url(text: string): string {
  return ASCII.test(text) ? fromBinary(text) : bytesToBase64Url(encoder.encode(text));
}

function toBinary(text: string): string | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
  // Leftover bits must be zero: otherwise several texts would decode to the same bytes.
  return fromBinary(binary) === text ? binary : null;
}

export function base64UrlToBytes(text: string): Uint8Array | null {
  const binary = toBinary(text);
  if (binary === null) return null;
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The text whose UTF-8 bytes `text` encodes, or null when it is not base64url or not UTF-8. */
export function base64UrlToText(text: string): string | null {
  const binary = toBinary(text);
  if (binary === null) return null;
  if (ASCII.test(binary)) return binary;
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}
