import type { OutboxSendError, ProjectRecord } from "../../store/records.ts";

/**
 * Handing an email to the project's own mail server. The emulator opens no connection (its outbox is the mailbox), so
 * every server is taken to accept the email, except one whose host name cannot resolve, which is known without a
 * network: the real service reports that as HOST_NOT_FOUND, a failure it does not retry ("server-error").
 */

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/**
 * A host no DNS lookup can answer: a name under `.invalid` (reserved never to resolve, RFC 6761 §6.4), or a name whose
 * last label is all digits without being an IPv4 address (no top-level domain is numeric, RFC 3696 §2), e.g.
 * "mail.0.0.0.0".
 */
export function hostCannotResolve(host: string): boolean {
  const name = host.trim().toLowerCase().replace(/\.$/, "");
  if (name === "invalid" || name.endsWith(".invalid")) return true;
  const last = name.split(".").pop() ?? "";
  return /^\d+$/.test(last) && !IPV4.test(name);
}

/** The send error of an email from this project, now: null when its mail server takes it (or it uses the shared one). */
export function sendErrorFor(project: ProjectRecord | undefined, now: number): OutboxSendError | null {
  const config = project?.config.email_config;
  if (config?.type !== "standard" || !hostCannotResolve(config.host ?? "")) return null;
  return {
    atMillis: now,
    errorType: "HOST_NOT_FOUND",
    message: "Failed to connect to the email host. Please make sure the email host configuration is correct.",
  };
}
