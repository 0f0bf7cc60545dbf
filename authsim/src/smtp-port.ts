import type { FakeProvider } from "@authsim/fake-provider";
import { SMTPServer } from "smtp-server";

/**
 * `--dev-ports`' <prefix>29: an SMTP server that takes any mail, as the real development setup's Inbucket takes it on
 * that port. The real service's e2e suite points its projects' own mail servers (`type: "standard"`) here; the email
 * queue delivers to it over SMTP (fake-provider/src/domain/ops/emails/smtp-delivery.ts) and the message is already
 * in the outbox, which the Inbucket API on <prefix>05 reads, so it is accepted and not kept twice. Mail from any other
 * sender is accepted and dropped (said on the console): the outbox holds what a project sent.
 *
 * A local listener only (the API's interface), any login taken, no STARTTLS (nothing to protect on loopback, and
 * nodemailer upgrades only when offered), at most 10 MB a message and 20 connections at once.
 */
/** Listens; answers the port it listens on (`port` 0 picks a free one) and a function that closes it. */
export function serveSmtpPort(
  provider: FakeProvider,
  port: number,
  host: string,
  log: (line: string) => void,
): Promise<{ port: number; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    size: 10 * 1024 * 1024,
    maxClients: 20,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? "any" });
    },
    onData(stream, session, callback) {
      let head = "";
      stream.on("data", (chunk: Buffer) => {
        // The headers are all this needs (the Message-ID): keep the first 64 kB.
        if (head.length < 65_536) head += chunk.toString("utf8");
      });
      stream.on("end", () => {
        const id = ownOutboxId(head);
        if (id === null || !provider.store.read.emails.has(id)) {
          const to = session.envelope.rcptTo.map((r) => r.address).join(", ");
          log(
            `SMTP on ${(server.server.address() as { port: number }).port}: accepted mail to ${to} that this emulator did not send; it is not kept.`,
          );
        }
        callback();
      });
    },
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    console.error(error.code === "EADDRINUSE" ? `Port ${port} is in use: pass --dev-ports-skip 29.` : error.message);
    process.exit(1);
  });
  return new Promise((resolve) => {
    server.listen(port, host, () => {
      const bound = (server.server.address() as { port: number }).port;
      log(`SMTP server taking any mail (as Inbucket's): localhost:${bound}.`);
      resolve({ port: bound, close: () => new Promise<void>((done) => server.close(() => done())) });
    });
  });
}

/** The outbox id in a Message-ID this emulator wrote (`<id@authsim.invalid>`), or null. */
export function ownOutboxId(headers: string): string | null {
  const match = /^Message-ID:\s*<([^@>\s]+)@authsim\.invalid>\s*$/im.exec(headers.split(/\r?\n\r?\n/)[0] ?? "");
  return match ? match[1]! : null;
}
