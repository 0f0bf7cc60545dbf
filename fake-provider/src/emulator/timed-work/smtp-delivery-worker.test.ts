import net from "node:net";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { api, expectJson, newProvider, server, signUp, type TestProvider } from "../../test-support/api.ts";
import { SMTP, updatedProject } from "../../test-support/admin.ts";

/**
 * Delivery to a project's own mail server over real sockets (smtp-delivery-worker.ts, domain/ops/emails/smtp-delivery.ts):
 * a server answering 450 (a retry recorded, the clock's advance bringing it), one answering 250 (delivered as sent),
 * an unreachable port (a failure recorded, the API unaffected), and the hosts and providers that open no connection.
 */

type OutboxEntry = {
  id: string;
  status: string;
  send_retries: number;
  next_send_retry_at_millis: number | null;
  send_attempt_errors:
    { attempt_number: number; external_message: string; external_details: { errorType: string } }[] | null;
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A server that greets, takes EHLO, and answers 450 to everything after (as the real suite's temp-fail server). */
async function tempFailServer(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const srv = net.createServer((socket) => {
    connections++;
    socket.on("error", () => undefined);
    socket.write("220 localhost test\r\n");
    socket.on("data", (data) => {
      const command = data.toString().trim().toUpperCase();
      if (command.startsWith("EHLO") || command.startsWith("HELO")) socket.write("250 localhost Hello\r\n");
      else if (command.startsWith("QUIT")) socket.end("221 Bye\r\n");
      else socket.end("450 Requested mail action not taken: mailbox unavailable (test)\r\n");
    });
  });
  const port = await listen(srv);
  closers.push(() => new Promise((resolve) => srv.close(() => resolve())));
  return { port, connections: () => connections };
}

/** A server that accepts every message, keeping what it received. */
async function acceptingServer(): Promise<{ port: number; received: { from: string; to: string[]; raw: string }[] }> {
  const received: { from: string; to: string[]; raw: string }[] = [];
  const srv = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // Any login is taken, as the development setup's Inbucket takes it.
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  const port = await listen(srv.server);
  closers.push(() => new Promise((resolve) => srv.close(() => resolve())));
  return { port, received };
}

function listen(srv: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => resolve((srv.address() as net.AddressInfo).port));
  });
}

async function sendOne(provider: TestProvider, subject: string): Promise<{ id: string; to: string }> {
  const user = await signUp(provider);
  await expectJson(
    await api(provider, "/emails/send-email", {
      headers: server(),
      json: { user_ids: [user.user_id], html: "<p>Hello</p>", subject },
    }),
  );
  await provider.work.runDue();
  await provider.work.idle();
  const list = await expectJson<{ items: (OutboxEntry & { subject?: string })[] }>(
    await api(provider, "/emails/outbox", { headers: server() }),
  );
  const entry = list.items.find((e) => e.subject === subject)!;
  return { id: entry.id, to: user.email };
}

const entryOf = async (provider: TestProvider, id: string) =>
  expectJson<OutboxEntry>(await api(provider, `/emails/outbox/${id}`, { headers: server() }));

const smtpProvider = () => newProvider({ smtpDelivery: {} });

// The first email a worker renders starts the render engine (seconds on a busy machine).
describe("SMTP delivery to a project's own server", { timeout: 60_000 }, () => {
  it("records a 450 as a retryable attempt, retries when the clock reaches the backoff, and gives up after 5", async () => {
    const fail = await tempFailServer();
    const provider = smtpProvider();
    await updatedProject(provider, { config: { email_config: { ...SMTP, host: "127.0.0.1", port: fail.port } } });
    const { id } = await sendOne(provider, "Retry me");
    const first = await entryOf(provider, id);
    expect(first).toMatchObject({ status: "scheduled", send_retries: 1 });
    expect(first.send_attempt_errors).toHaveLength(1);
    expect(first.send_attempt_errors![0]!.attempt_number).toBe(1);
    expect(first.send_attempt_errors![0]!.external_message).toContain("450");
    expect(first.send_attempt_errors![0]!.external_details).toEqual({ errorType: "TEMPORARY" });
    expect(first.next_send_retry_at_millis).toBeGreaterThan(provider.clock.now());
    for (let attempt = 2; attempt <= 5; attempt++) {
      const before = await entryOf(provider, id);
      provider.clock.advance(before.next_send_retry_at_millis! - provider.clock.now());
      await provider.work.runDue();
      await provider.work.idle();
      expect((await entryOf(provider, id)).send_retries).toBe(attempt);
    }
    const last = await entryOf(provider, id);
    expect(last).toMatchObject({ status: "server-error", send_retries: 5, next_send_retry_at_millis: null });
    expect(last.send_attempt_errors!.map((e) => e.attempt_number)).toEqual([1, 2, 3, 4, 5]);
    expect(fail.connections()).toBe(5);
    expect(provider.unexpected).toEqual([]);
  });

  it("delivers to a server that answers 250, with the From, To and Subject as sent", async () => {
    const inbox = await acceptingServer();
    const provider = smtpProvider();
    await updatedProject(provider, {
      config: {
        email_config: {
          ...SMTP,
          host: "localhost",
          port: inbox.port,
          sender_name: "Acme",
          sender_email: "hi@acme.example",
        },
      },
    });
    const { id, to } = await sendOne(provider, "Delivered over SMTP");
    expect(await entryOf(provider, id)).toMatchObject({ status: "sent", send_retries: 0, send_attempt_errors: null });
    expect(inbox.received).toHaveLength(1);
    const message = inbox.received[0]!;
    expect(message.from).toBe("hi@acme.example");
    expect(message.to).toEqual([to]);
    expect(message.raw).toMatch(/^From: "?Acme"? <hi@acme\.example>$/m);
    expect(message.raw).toMatch(/^Subject: Delivered over SMTP$/m);
    expect(message.raw).toContain(`Message-ID: <${id}@authsim.invalid>`);
    // The outbox still records it, delivered.
    expect(provider.outbox.latest({ to })!.subject).toBe("Delivered over SMTP");
  });

  it("records an unreachable port as a failure, and the API answers meanwhile", async () => {
    const closed = net.createServer();
    const port = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const provider = smtpProvider();
    await updatedProject(provider, { config: { email_config: { ...SMTP, host: "127.0.0.1", port } } });
    const { id } = await sendOne(provider, "Nobody listens");
    const entry = await entryOf(provider, id);
    expect(entry.status).toBe("server-error");
    expect(entry.send_retries).toBe(1);
    expect(entry.send_attempt_errors![0]!.external_details.errorType).toBe("UNKNOWN");
    expect((await api(provider, "/users", { headers: server() })).status).toBe(200);
  });

  it("attempts again an entry a restored snapshot left 'sending' with no attempt open", async () => {
    const sent: string[] = [];
    const provider = newProvider({
      smtpDelivery: {
        send: (_server, message) => {
          sent.push(message.outboxId);
          return Promise.resolve({ ok: true });
        },
      },
    });
    await updatedProject(provider, { config: { email_config: { ...SMTP, host: "127.0.0.1", port: 2525 } } });
    const { id } = await sendOne(provider, "Mid-attempt");
    expect(sent).toEqual([id]);
    // As a snapshot taken during the attempt holds it.
    provider.store.transactSync((tables) => {
      const email = tables.emails.get(id)!;
      const smtp = { ...email.outbox!.smtp!, deliveredAtMillis: null, sendingSinceMillis: provider.clock.now() };
      tables.emails.set(id, { ...email, outbox: { ...email.outbox!, smtp } });
    });
    expect((await entryOf(provider, id)).status).toBe("sending");
    await provider.work.runDue();
    await provider.work.idle();
    expect(sent).toEqual([id, id]);
    expect((await entryOf(provider, id)).status).toBe("sent");
  });

  it("opens no connection to a host that is not loopback unless named, nor without the setting", async () => {
    const fail = await tempFailServer();
    const offByDefault = newProvider();
    await updatedProject(offByDefault, { config: { email_config: { ...SMTP, host: "127.0.0.1", port: fail.port } } });
    const quiet = await sendOne(offByDefault, "Outbox only");
    expect(await entryOf(offByDefault, quiet.id)).toMatchObject({ status: "sent", send_retries: 0 });
    const remote = smtpProvider();
    await updatedProject(remote, { config: { email_config: { ...SMTP, host: "smtp.example.com", port: fail.port } } });
    const far = await sendOne(remote, "Not to the world");
    expect(await entryOf(remote, far.id)).toMatchObject({ status: "sent", send_retries: 0 });
    expect(fail.connections()).toBe(0);
  });
});
