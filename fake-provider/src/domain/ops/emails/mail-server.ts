import type { OutboxEntryRecord, OutboxSendError, ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";

/**
 * Handing an email to the project's own mail server. A host name that cannot resolve is known without a network: the
 * real service reports it as HOST_NOT_FOUND, a failure it does not retry ("server-error"). Otherwise, where the
 * provider's `smtpDelivery` setting reaches the host, the email is delivered over SMTP (smtp-delivery.ts); elsewhere
 * the outbox is the mailbox and the server is taken to accept it.
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

/** The server an entry is handed to: what the SMTP client needs. */
export interface SmtpServer {
  host: string;
  port: number;
  username: string;
  password: string;
}

const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Whether a host is this machine's own. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[(.*)\]$/, "$1");
  return name === "localhost" || name.endsWith(".localhost") || LOOPBACK_V4.test(name) || name === "::1";
}

/** The project's own server, when its entries go over SMTP under the provider's setting; null when they do not. */
export function smtpServerOf(ctx: Pick<OpContext, "settings">, project: ProjectRecord | undefined): SmtpServer | null {
  const setting = ctx.settings.smtpDelivery;
  const config = project?.config.email_config;
  if (!setting || config?.type !== "standard" || config.managed) return null;
  const host = config.host.trim().toLowerCase();
  if (!isLoopbackHost(host) && !setting.allowHosts.some((allowed) => allowed.trim().toLowerCase() === host))
    return null;
  return { host: config.host, port: config.port, username: config.username, password: config.password };
}

/**
 * How an entry rendered now is to be delivered: a host that cannot resolve fails at once (mail-server.ts), a server
 * reached over SMTP gets an empty delivery record for the worker, anything else is the outbox's alone.
 */
export function deliveryFieldsFor(
  ctx: OpContext,
  project: ProjectRecord | undefined,
): Pick<OutboxEntryRecord, "sendError" | "smtp"> {
  const sendError = sendErrorFor(project, ctx.now);
  if (sendError || !smtpServerOf(ctx, project)) return { sendError };
  return {
    sendError: null,
    smtp: { attempts: [], nextAttemptAtMillis: null, deliveredAtMillis: null, sendingSinceMillis: null },
  };
}
