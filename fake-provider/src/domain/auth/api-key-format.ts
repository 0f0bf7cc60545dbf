import { randomBase32, type RandomSource } from "@authsim/sdk/runtime";

/**
 * User and team API key secrets in the real service's format, so its key parser (and secret scanners, which look for
 * the marker) recognise them. A secret is one run with no separators after the prefix:
 *
 *   <pk|sk> _ <45 random base32 chars> <the key's id, 32 hex digits> <user|team> <scanner flag> 574ck4u7h <crc32, 8 hex>
 *
 * The scanner flag is a Crockford base32 digit: +1 when the key is not from the cloud service (an emulator never is),
 * +2 when the key is public. The checksum is the CRC-32 of everything before it, in lower-case hex.
 */
export const API_KEY_MARKER = "574ck4u7h";
const CROCKFORD = "0123456789abcdefghjkmnpqrstvwxyz";

export interface ApiKeySecretParts {
  id: string;
  type: "user" | "team";
  isPublic: boolean;
  isCloudVersion: boolean;
}

export function newApiKeySecret(
  random: RandomSource,
  key: { id: string; type: "user" | "team"; isPublic: boolean },
): string {
  const prefix = key.isPublic ? "pk" : "sk";
  const secretPart = randomBase32(random, 224).toLowerCase();
  const scanner = CROCKFORD[1 + (key.isPublic ? 2 : 0)]!;
  const body = `${prefix}_${secretPart}${key.id.replace(/-/g, "")}${key.type}${scanner}${API_KEY_MARKER}`;
  return `${body}${crc32Hex(body)}`;
}

const SHAPE = new RegExp(
  `^([a-zA-Z0-9_]+)_([a-zA-Z0-9_]{45})([a-zA-Z0-9_]{32})([a-zA-Z0-9_]{4})([a-zA-Z0-9_])(${API_KEY_MARKER})([a-zA-Z0-9_]{8})$`,
);

/** The parts of a well-formed secret whose checksum holds, or null. */
export function parseApiKeySecret(secret: string): ApiKeySecretParts | null {
  const match = SHAPE.exec(secret);
  if (!match) return null;
  const [, , , idPart, type, scanner, , checksum] = match;
  if ((type !== "user" && type !== "team") || crc32Hex(secret.slice(0, -8)) !== checksum) return null;
  const flag = CROCKFORD.indexOf(scanner!.toLowerCase());
  return {
    id: idPart!.replace(/(.{8})(.{4})(.{4})(.{4})(.{12})/, "$1-$2-$3-$4-$5"),
    type,
    isPublic: (flag & 2) !== 0,
    isCloudVersion: flag % 2 === 0,
  };
}

/** CRC-32 (IEEE 802.3, the zlib one) of the UTF-8 bytes, as 8 lower-case hex digits. A checksum, not a security primitive. */
export function crc32Hex(text: string): string {
  let crc = 0xffffffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return ((crc ^ 0xffffffff) >>> 0).toString(16).padStart(8, "0");
}
