import type { SentEmailRecord, SmtpAttemptRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { senderOf } from "./outbox.ts";
import { smtpServerOf, type SmtpServer } from "./mail-server.ts";

/**
 * Delivery to a project's own mail server over SMTP, as the real email queue does it: an entry is handed over once
 * rendered and due; a failure the real service deems temporary (a 4xx reply, a timeout, a dropped TLS handshake) is
 * retried after a backoff of (0.5 to 1.5) × 20 s × 2^attempt, up to 5 attempts; any other failure, or the fifth, is
 * "server-error" for good. Each failure is one entry of send_attempt_errors. The attempt itself happens outside the
 * store's lock, in the timed work (emulator/timed-work/smtp-delivery-worker.ts), through the `#smtp-client` seam.
 *
 * Which servers are reached: only when the provider's `smtpDelivery` setting is on (the dev server turns it on), only a
 * project's own server (`type: "standard"`, not a managed one: the shared and managed servers stay outbox-only), and
 * only a loopback host (localhost, 127.0.0.0/8, ::1) unless the setting names the host: the dev server runs on a
 * laptop, and a project's config (which anyone holding the published admin key can change) must not make it mail the
 * world. Other entries are delivered the instant the clock passes their schedule, as before.
 */

export const MAX_SEND_ATTEMPTS = 5;
const SEND_RETRY_BACKOFF_BASE_MILLIS = 20_000;

/** One email as handed to the server. */
export interface SmtpMessage {
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  /** The outbox entry's id: its Message-ID is `<id@authsim.invalid>`, so the emulator's own server (--dev-ports 29) knows its mail. */
  outboxId: string;
}

/** What the SMTP client reports of a failed attempt (nodemailer's error fields). */
export interface SmtpFailure {
  message: string;
  code?: string | undefined;
  responseCode?: number | undefined;
  response?: string | undefined;
}

export type SendOverSmtp = (
  server: SmtpServer,
  message: SmtpMessage,
) => Promise<{ ok: true } | { ok: false; failure: SmtpFailure }>;

/** A number in [0, 1) from the injected random source (the backoff's jitter). */
function fraction(ctx: Pick<OpContext, "random">): number {
  const b = ctx.random.bytes(4);
  return (((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0) / 2 ** 32;
}

/** When an entry waiting for SMTP may be attempted: its schedule, and its backoff after a failure. */
export const smtpDueAt = (email: SentEmailRecord): number =>
  Math.max(email.outbox!.scheduledAtMillis, email.outbox!.smtp?.nextAttemptAtMillis ?? 0);

/**
 * An attempt to make now: the entry marked "sending", with its server and message; null when it is not due.
 * `orphaned`: the entry reads "sending" but no attempt of this provider is open for it (a snapshot taken mid-attempt
 * and restored), so it is attempted again.
 */
export function claimSmtpAttempt(
  ctx: OpContext,
  id: string,
  orphaned = false,
): { server: SmtpServer; message: SmtpMessage } | null {
  const email = ctx.tables.emails.get(id);
  const project = email ? ctx.tables.projects.get(email.projectId) : undefined;
  const server = smtpServerOf(ctx, project);
  if (!email?.outbox?.smtp || !project || !server) return null;
  if (smtpDueAt(email) > ctx.now || (email.outbox.smtp.sendingSinceMillis !== null && !orphaned)) return null;
  ctx.tables.emails.set(email.id, {
    ...email,
    outbox: { ...email.outbox, smtp: { ...email.outbox.smtp, sendingSinceMillis: ctx.now, nextAttemptAtMillis: null } },
  });
  return {
    server,
    message: {
      from: senderOf(project),
      to: email.to,
      subject: email.subject,
      html: email.html,
      text: email.text,
      outboxId: email.id,
    },
  };
}

/** The real service's reading of a failed attempt: its error type, whether it retries, and its message. */
export function classifySmtpFailure(failure: SmtpFailure): { errorType: string; canRetry: boolean; message: string } {
  const { code, responseCode } = failure;
  const response = failure.response ? `\nResponse from the email server:\n${failure.response}` : "";
  if (code === "EDNS")
    return {
      errorType: "HOST_NOT_FOUND",
      canRetry: false,
      message: "Failed to connect to the email host. Please make sure the email host configuration is correct.",
    };
  if (responseCode === 535 || code === "EAUTH")
    return {
      errorType: "AUTH_FAILED",
      canRetry: false,
      message: "Failed to authenticate with the email server. Please check your email credentials configuration.",
    };
  if (responseCode === 450)
    return {
      errorType: "TEMPORARY",
      canRetry: true,
      message:
        "The email server returned a temporary error. This could be due to a temporary network issue or a temporary block on the email server. Please try again later.\n\nError: " +
        response,
    };
  if (responseCode === 553)
    return {
      errorType: "INVALID_EMAIL_ADDRESS",
      canRetry: false,
      message:
        "The email address provided is invalid. Please verify both the recipient and sender email addresses configuration are correct.\n\nError:" +
        response,
    };
  if (responseCode === 554 || code === "EENVELOPE")
    return {
      errorType: "REJECTED",
      canRetry: false,
      message:
        "The email server rejected the email. Please check your email configuration and try again later.\n\nError:" +
        response,
    };
  if (code === "ETIMEDOUT")
    return {
      errorType: "TIMEOUT",
      canRetry: true,
      message:
        "The email server timed out while sending the email. This could be due to a temporary network issue or a temporary block on the email server. Please try again later.",
    };
  if (failure.message.includes("Unexpected socket close"))
    return {
      errorType: "SOCKET_CLOSED",
      canRetry: false,
      message:
        "Connection to email server was lost unexpectedly. This could be due to incorrect email server port configuration or a temporary network issue. Please verify your configuration and try again.",
    };
  if (responseCode !== undefined && responseCode >= 400 && responseCode < 500)
    return {
      errorType: "TRANSIENT_NEGATIVE_COMPLETION_REPLY",
      canRetry: true,
      message: "The email server returned a temporary error. Please try again later." + response,
    };
  const transient = [
    "450 ",
    "Client network socket disconnected before secure TLS connection was established",
    "Too many requests",
  ];
  if (transient.some((indicator) => failure.message.includes(indicator)))
    return {
      errorType: "UNKNOWN",
      canRetry: true,
      message:
        "Failed to send email, but error is possibly transient due to the internet connection. Please check your email configuration and try again later.",
    };
  return { errorType: "UNKNOWN", canRetry: false, message: "An unknown error occurred while sending the email." };
}

/**
 * Stores an attempt's outcome on the entry, if it is still the one claimed (an entry deleted, edited or cancelled
 * meanwhile is left as that change made it). Answers whether it was stored.
 */
export function recordSmtpOutcome(
  ctx: OpContext,
  id: string,
  outcome: { ok: true } | { ok: false; failure: SmtpFailure },
): boolean {
  const email = ctx.tables.emails.get(id);
  const smtp = email?.outbox?.smtp;
  if (!email?.outbox || !smtp || smtp.sendingSinceMillis === null) return false;
  const done = { ...smtp, sendingSinceMillis: null };
  if (outcome.ok) {
    ctx.tables.emails.set(id, {
      ...email,
      outbox: { ...email.outbox, updatedAtMillis: ctx.now, smtp: { ...done, deliveredAtMillis: ctx.now } },
    });
    return true;
  }
  const { errorType, canRetry, message } = classifySmtpFailure(outcome.failure);
  const attemptNumber = smtp.attempts.length + 1;
  const attempt: SmtpAttemptRecord = {
    attemptNumber,
    atMillis: ctx.now,
    errorType,
    message,
    rawError: outcome.failure.message,
  };
  const attempts = [...smtp.attempts, attempt];
  const retry = canRetry && attemptNumber < MAX_SEND_ATTEMPTS;
  const backoff = (fraction(ctx) + 0.5) * SEND_RETRY_BACKOFF_BASE_MILLIS * 2 ** attemptNumber;
  ctx.tables.emails.set(id, {
    ...email,
    outbox: {
      ...email.outbox,
      updatedAtMillis: ctx.now,
      smtp: { ...done, attempts, nextAttemptAtMillis: retry ? ctx.now + Math.round(backoff) : null },
      ...(retry ? {} : { sendError: { atMillis: ctx.now, errorType, message } }),
    },
  });
  return true;
}
