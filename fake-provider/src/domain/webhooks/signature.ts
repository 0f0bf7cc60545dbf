import { base64ToBytes, bytesToBase64 } from "@authsim/sdk/runtime";

/**
 * Svix's signature scheme (what its libraries' `Webhook.verify` checks): HMAC-SHA256 over `${id}.${timestamp}.${body}`
 * with the key that the endpoint's `whsec_` secret carries in base64, sent as `svix-signature: v1,<base64>` beside
 * `svix-id` and `svix-timestamp` (seconds). Web Crypto only, so the emulator's core runs anywhere.
 */

export const SECRET_PREFIX = "whsec_";

export async function svixSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const keyBytes = base64ToBytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`));
  return `v1,${bytesToBase64(new Uint8Array(mac))}`;
}

/** The headers of one delivery: the message id, the emulator's time in seconds, the signature. */
export async function svixHeaders(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): Promise<Record<string, string>> {
  return {
    "svix-id": id,
    "svix-timestamp": String(timestampSeconds),
    "svix-signature": await svixSignature(secret, id, timestampSeconds, body),
  };
}
