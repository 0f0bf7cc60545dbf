import { constantTimeEqualStrings } from "../../auth/compare.ts";
import { refusal } from "../../errors/refusals.ts";
import type { OpContext } from "../context.ts";
import { applyProviderDomainStatus } from "./managed-email.ts";

/**
 * POST /integrations/resend/webhooks: the email provider (Resend) reports a managed domain's status through Svix. The
 * request must carry Svix's signature over `id.timestamp.body` (HMAC-SHA256 with the endpoint's secret, base64, as
 * `v1,<signature>` among space-separated signatures) within five minutes of the clock; then only `domain.updated`
 * events change anything (domain/ops/emails/managed-email.ts applyProviderDomainStatus), others are acknowledged.
 *
 * Upstream reads its secret from STACK_RESEND_WEBHOOK_SECRET; the emulator's is the fixed development secret below, as
 * public as its other development keys: it only lets a caller move a managed domain's status.
 */
export const DEV_RESEND_WEBHOOK_SECRET = "whsec_YXV0aHNpbS1yZXNlbmQtd2ViaG9vay1zZWNyZXQ=";

/** How far a signature's timestamp may be from the clock (Svix's tolerance). */
const TOLERANCE_SECONDS = 5 * 60;

export interface SvixHeaders {
  id: string;
  timestamp: string;
  signature: string;
}

async function hmacBase64(secret: string, message: string): Promise<string> {
  const keyBytes = Uint8Array.from(atob(secret.replace(/^whsec_/, "")), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message)));
  return btoa(String.fromCharCode(...signature));
}

/** The signature a sender with `secret` puts in svix-signature (tests and the dashboard sign with it). */
export async function svixSignature(secret: string, id: string, timestamp: string, body: string): Promise<string> {
  return `v1,${await hmacBase64(secret, `${id}.${timestamp}.${body}`)}`;
}

async function verify(ctx: OpContext, headers: SvixHeaders, body: string): Promise<void> {
  const timestamp = Number(headers.timestamp);
  if (!/^\d+$/.test(headers.timestamp) || Math.abs(Math.floor(ctx.now / 1000) - timestamp) > TOLERANCE_SECONDS)
    throw refusal("invalidResendWebhookSignature");
  const expected = await svixSignature(DEV_RESEND_WEBHOOK_SECRET, headers.id, headers.timestamp, body);
  const given = headers.signature.split(" ").filter((s) => s.startsWith("v1,"));
  if (!given.some((s) => constantTimeEqualStrings(s, expected))) throw refusal("invalidResendWebhookSignature");
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export async function receiveResendWebhook(
  ctx: OpContext,
  headers: SvixHeaders,
  body: string,
): Promise<{ received: true }> {
  await verify(ctx, headers, body);
  let event: unknown;
  try {
    event = JSON.parse(body) as unknown;
  } catch {
    throw refusal("invalidResendWebhookJson");
  }
  if (!isObject(event) || event.type !== "domain.updated") return { received: true };
  const data = isObject(event.data) ? event.data : {};
  // Upstream fails without both (an internal error); the emulator refuses the event instead.
  if (typeof data.id !== "string" || typeof data.status !== "string") throw refusal("resendWebhookMissingDomainFields");
  applyProviderDomainStatus(ctx, data.id, data.status);
  return { received: true };
}
