import type { z } from "zod";
import type { sendTestEmailRequest } from "@authsim/sdk/contract";
import type { ProjectRecord } from "../../store/records.ts";
import type { OpContext } from "../context.ts";
import { assertTrustedCallback } from "../oauth/callback-urls.ts";
import { fromHeader, sendEmail } from "./outbox.ts";
import { recordSentEmail } from "./email-sending.ts";
import { hostCannotResolve } from "./mail-server.ts";

/**
 * The admin's email calls (spec §4 "Test email send returns success or an error message", §7 Admin): the test email
 * through an SMTP configuration, and the sign-in invitation.
 */

/**
 * The emulator opens no network connection, so an SMTP server is judged by its host: a name that cannot resolve
 * (domain/ops/emails/mail-server.ts) fails as a real connection would; any other configuration "delivers" the test email into the
 * outbox, from where a test can read it.
 */
export function sendTestEmail(
  ctx: OpContext,
  project: ProjectRecord,
  body: z.infer<typeof sendTestEmailRequest>,
): { success: true } | { success: false; error_message: string } {
  if (hostCannotResolve(body.email_config.host)) {
    return {
      success: false,
      error_message: `Failed to connect to the email server ${body.email_config.host}:${body.email_config.port}: getaddrinfo ENOTFOUND ${body.email_config.host}`,
    };
  }
  const subject = "Test email from Stack Auth";
  const text = `This is a test email sent with the SMTP server ${body.email_config.host}:${body.email_config.port} as ${body.email_config.sender_name} <${body.email_config.sender_email}>.`;
  // Sent through the configuration under test, so from its sender (not the project's current one).
  recordSentEmail(ctx, project.id, body.recipient_email, null, {
    from: fromHeader(body.email_config.sender_name, body.email_config.sender_email),
    subject,
    text,
    html: `<!doctype html><html><body><p>${text.replace(/</g, "&lt;")}</p></body></html>`,
  });
  return { success: true };
}

/** POST /internal/send-sign-in-invitation {email, callback_url}: the link must be on a trusted domain (spec §5). */
export function sendSignInInvitation(
  ctx: OpContext,
  project: ProjectRecord,
  body: { email: string; callback_url: string },
): void {
  assertTrustedCallback(project, body.callback_url);
  sendEmail(ctx, { projectId: project.id, to: body.email, kind: "sign_in_invitation", link: body.callback_url });
}
