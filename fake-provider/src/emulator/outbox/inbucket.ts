import type { FakeProvider } from "../../provider.ts";
import type { SentEmailRecord } from "../../domain/store/records.ts";
import { json, text } from "../../api/http/respond.ts";

/**
 * The outbox as the real development setup's mailbox server (Inbucket, on <prefix>05) answers it: the two reads the
 * real service's e2e helpers make (their `Mailbox`), so its suite and tools that read Inbucket need no adapter.
 *
 *   GET /api/v1/mailbox/{name}        the mailbox's messages, oldest first: their headers only
 *   GET /api/v1/mailbox/{name}/{id}   one message, with its header map, text and HTML bodies and (no) attachments
 *
 * A mailbox is Inbucket's default naming of an address: its local part, lower case, without a "+tag". The sender is
 * what the real service's shared mail server sends as (`<project name> <noreply@example.com>`, its development
 * STACK_EMAIL_SENDER), or the project's own server's sender; the outbox keeps no sender of its own, so it is read from
 * the project as it is now.
 */

/** The sender address of the real development setup's shared mail server. */
export const SHARED_SENDER_ADDRESS = "noreply@example.com";

export const mailboxName = (address: string): string => {
  const local = address.split("@")[0]!.trim().toLowerCase();
  const plus = local.indexOf("+");
  return plus > 0 ? local.slice(0, plus) : local;
};

function sender(provider: FakeProvider, email: SentEmailRecord): string {
  const project = provider.store.read.projects.get(email.projectId);
  const server = project?.config.email_config;
  if (server?.type === "standard") return `${server.sender_name} <${server.sender_email}>`;
  return project ? `${project.displayName} <${SHARED_SENDER_ADDRESS}>` : `<${SHARED_SENDER_ADDRESS}>`;
}

function summary(provider: FakeProvider, email: SentEmailRecord, mailbox: string) {
  return {
    mailbox,
    id: email.id,
    from: sender(provider, email),
    to: email.to.map((a) => `<${a}>`),
    subject: email.subject,
    date: new Date(email.sentAtMillis).toISOString(),
    "posix-millis": email.sentAtMillis,
    size: email.text.length + email.html.length,
    seen: false,
  };
}

function message(provider: FakeProvider, email: SentEmailRecord, mailbox: string) {
  const head = summary(provider, email, mailbox);
  return {
    ...head,
    header: {
      From: [head.from],
      To: head.to,
      Subject: [head.subject],
      Date: [head.date],
      "Content-Type": ["multipart/alternative"],
    },
    body: { text: email.text, html: email.html },
    attachments: [],
  };
}

/** The mailbox API's fetch handler over the provider's outbox (what the dev server serves on its mailbox port). */
export function inbucketFetch(provider: FakeProvider): (request: Request) => Promise<Response> {
  return async (request) => {
    const parts = new URL(request.url).pathname.split("/").filter(Boolean);
    const [api, v1, mailboxes, name, id] = parts;
    if (api !== "api" || v1 !== "v1" || mailboxes !== "mailbox" || name === undefined || parts.length > 5)
      return text("Not Found", 404);
    if (request.method !== "GET" && request.method !== "HEAD") return text("Method Not Allowed", 405);
    // What is due in the email queue is rendered first, as before any API request (emulator/timed-work/runner.ts).
    await provider.work.beforeRequest();
    let mailbox: string;
    try {
      mailbox = mailboxName(decodeURIComponent(name));
    } catch {
      return text("Bad Request", 400);
    }
    const emails = provider.outbox.list().filter((e) => e.to.some((to) => mailboxName(to) === mailbox));
    if (id === undefined) return json(emails.map((e) => summary(provider, e, mailbox)));
    const email = emails.find((e) => e.id === id);
    return email ? json(message(provider, email, mailbox)) : text("Not Found", 404);
  };
}
