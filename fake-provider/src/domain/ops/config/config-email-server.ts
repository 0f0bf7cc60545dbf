import type { EmailConfigRecord } from "../../store/admin-records.ts";
import type { ProjectConfigRecord } from "../../store/records.ts";
import { applyKeys } from "./config-layers.ts";

/**
 * The config's `emails.server` section (project-config.ts) and the project record's email server, both ways: the
 * section renders from the record, and an override's `emails.server…` keys become the record the email sending reads.
 * A standard SMTP server, the shared one, or the managed provider (domain/ops/emails/managed-email.ts).
 */

/** The email server as the config renders it, from the record. */
export function emailServerOf(c: ProjectConfigRecord): Record<string, unknown> {
  const email = c.email_config ?? { type: "shared" as const };
  if (email.type === "shared") return { isShared: true, provider: "smtp" };
  if (email.managed) {
    // The managed provider's keys only: its relay's host, port and user are the admin view's, not config values.
    const { subdomain, sender_local_part } = email.managed;
    return {
      isShared: false,
      provider: "managed",
      password: email.password,
      senderName: email.sender_name,
      senderEmail: email.sender_email,
      ...(subdomain !== "" ? { managedSubdomain: subdomain } : {}),
      ...(sender_local_part !== "" ? { managedSenderLocalPart: sender_local_part } : {}),
    };
  }
  return {
    isShared: false,
    provider: "smtp",
    host: email.host,
    port: email.port,
    username: email.username,
    password: email.password,
    senderName: email.sender_name,
    senderEmail: email.sender_email,
  };
}

/** How upstream's admin view shows a managed server: its provider's SMTP relay, and the sender on the subdomain. */
const MANAGED_RELAY = { host: "smtp.resend.com", port: 465, username: "resend" };

/** The record's email server after the override's `emails.server…` keys (a standard server's missing fields stay empty). */
export function emailConfigAfter(c: ProjectConfigRecord, keys: [string, unknown][]): EmailConfigRecord {
  const holder: Record<string, unknown> = { emails: { server: emailServerOf(c) } };
  applyKeys(holder, Object.fromEntries(keys));
  const server = ((holder.emails as Record<string, unknown>).server ?? { isShared: true }) as Record<string, unknown>;
  if (server.isShared !== false) return { type: "shared" };
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  if (server.provider === "managed") {
    const managed = {
      subdomain: text(server.managedSubdomain),
      sender_local_part: text(server.managedSenderLocalPart),
    };
    const onSubdomain = managed.subdomain !== "" && managed.sender_local_part !== "";
    return {
      type: "standard",
      ...MANAGED_RELAY,
      password: text(server.password),
      sender_name: text(server.senderName),
      sender_email: onSubdomain ? `${managed.sender_local_part}@${managed.subdomain}` : text(server.senderEmail),
      managed,
    };
  }
  return {
    type: "standard",
    host: text(server.host),
    port: typeof server.port === "number" ? server.port : 587,
    username: text(server.username),
    password: text(server.password),
    sender_name: text(server.senderName),
    sender_email: text(server.senderEmail),
  };
}
