import type { SendOverSmtp, SmtpFailure } from "./smtp-delivery.ts";

/**
 * What Node gets for `#smtp-client` (package.json "imports"): one SMTP connection per attempt with nodemailer, bounded
 * as the real service bounds its own (15 s to connect, 10 s for the greeting, 20 s of silence, 7 s for DNS), so a
 * server that never answers holds only its own attempt, never a request. nodemailer is loaded at the first attempt:
 * most providers (tests, a dev server without a project mail server) never make one, and start sooner without it.
 */
export const sendOverSmtp: SendOverSmtp = async (server, message) => {
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: server.host,
    port: server.port,
    secure: server.port === 465,
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
    dnsTimeout: 7_000,
    auth: { user: server.username, pass: server.password },
  });
  try {
    await transport.sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      messageId: `<${message.outboxId}@authsim.invalid>`,
    });
    return { ok: true };
  } catch (error) {
    const e = error as { message?: unknown; code?: unknown; responseCode?: unknown; response?: unknown };
    const failure: SmtpFailure = {
      message: typeof e.message === "string" ? e.message : String(error),
      code: typeof e.code === "string" ? e.code : undefined,
      responseCode: typeof e.responseCode === "number" ? e.responseCode : undefined,
      response: typeof e.response === "string" ? e.response : undefined,
    };
    return { ok: false, failure };
  } finally {
    transport.close();
  }
};
