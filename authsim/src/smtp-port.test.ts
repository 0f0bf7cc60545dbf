import nodemailer from "nodemailer";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeProvider, type FakeProvider } from "@authsim/fake-provider";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";
import { callerHeaders } from "@authsim/sdk/contract";
import { devProjectSeed as DEV } from "@authsim/fixtures";
import { ownOutboxId, serveSmtpPort } from "./smtp-port.ts";

/** `--dev-ports`' SMTP server on <prefix>29 (smtp-port.ts), over real sockets. */

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start(provider: FakeProvider) {
  const lines: string[] = [];
  const smtp = await serveSmtpPort(provider, 0, "127.0.0.1", (line) => lines.push(line));
  closers.push(smtp.close);
  return { port: smtp.port, lines };
}

const admin = callerHeaders({
  projectId: DEV.id,
  accessType: "admin",
  publishableClientKey: DEV.keys.publishable_client_key,
  secretServerKey: DEV.keys.secret_server_key,
  superSecretAdminKey: DEV.keys.super_secret_admin_key,
});

describe("the dev ports' SMTP server", { timeout: 60_000 }, () => {
  it("takes the emulator's own delivery to a project pointed at it, which the outbox already holds", async () => {
    const provider = createFakeProvider({
      clock: manualClock(Date.UTC(2026, 0, 1)),
      ids: seededRandom("smtp-port"),
      smtpDelivery: {},
    });
    const { port, lines } = await start(provider);
    const patch = await provider.fetch("http://localhost/api/v1/internal/projects/current", {
      method: "PATCH",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({
        config: {
          email_config: {
            type: "standard",
            host: "localhost",
            port,
            username: "u",
            password: "p",
            sender_name: "Dev",
            sender_email: "dev@example.com",
          },
        },
      }),
    });
    expect(patch.status).toBe(200);
    const invite = await provider.fetch("http://localhost/api/v1/internal/send-sign-in-invitation", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ email: "guest@example.com", callback_url: "http://localhost:3000/handler/sign-in" }),
    });
    expect(invite.status).toBe(200);
    await provider.work.runDue();
    await provider.work.idle();
    const email = provider.outbox.latest({ to: "guest@example.com" });
    expect(email).toBeDefined();
    const entry = (await (
      await provider.fetch(`http://localhost/api/v1/emails/outbox/${email!.id}`, { headers: admin })
    ).json()) as { status: string; send_retries: number };
    expect(entry).toMatchObject({ status: "sent", send_retries: 0 });
    expect(lines.filter((l) => l.includes("not kept"))).toEqual([]);
  });

  it("accepts mail it did not send and says it is not kept", async () => {
    const provider = createFakeProvider({ clock: manualClock(Date.UTC(2026, 0, 1)), ids: seededRandom("smtp-port") });
    const { port, lines } = await start(provider);
    const transport = nodemailer.createTransport({ host: "127.0.0.1", port, auth: { user: "x", pass: "y" } });
    const info = await transport.sendMail({ from: "a@example.com", to: "b@example.com", subject: "Hi", text: "Hi" });
    transport.close();
    expect(info.accepted).toEqual(["b@example.com"]);
    expect(lines.some((l) => l.includes("b@example.com") && l.includes("not kept"))).toBe(true);
  });

  it("reads its own Message-ID only in the headers", () => {
    expect(ownOutboxId("From: a\r\nMessage-ID: <abc-1@authsim.invalid>\r\n\r\nbody")).toBe("abc-1");
    expect(ownOutboxId("Message-ID: <abc@example.com>\r\n\r\n")).toBeNull();
    expect(ownOutboxId("Subject: x\r\n\r\nMessage-ID: <abc@authsim.invalid>")).toBeNull();
  });
});
