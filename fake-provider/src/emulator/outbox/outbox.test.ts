import { describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider } from "../../app.ts";
import { opContextOn } from "../../domain/run-op.ts";
import { outboxFieldsOf } from "../../domain/ops/emails/email-outbox.ts";
import { sendEmail } from "../../domain/ops/emails/outbox.ts";
import type { SentEmailRecord } from "../../domain/store/records.ts";
import { OutboxTimeoutError } from "./outbox.ts";

function setup() {
  const provider = createFakeProvider({ clock: manualClock(Date.UTC(2026, 0, 1)), ids: seededRandom("outbox") });
  const send = (to: string, kind: SentEmailRecord["kind"] & ("password_reset" | "magic_link")) =>
    provider.store.transact((tables) =>
      sendEmail(opContextOn(tables, provider.clock.now(), seededRandom(to), provider.settings), {
        projectId: dev.id,
        to,
        kind,
        code: "c0de",
        otp: "C0DE12",
        link: `http://localhost:3000/cb?code=c0de`,
      }),
    );
  return { provider, send };
}

describe("outbox", () => {
  it("captures recipient, subject, kind, code, link, HTML and time, in sending order", async () => {
    const { provider, send } = setup();
    await send("a@example.com", "password_reset");
    await send("b@example.com", "magic_link");
    const all = provider.outbox.list();
    expect(all.map((e) => [e.to[0], e.kind, e.seq])).toEqual([
      ["a@example.com", "password_reset", 1],
      ["b@example.com", "magic_link", 2],
    ]);
    expect(all[1]).toMatchObject({
      code: "c0de",
      otp: "C0DE12",
      link: "http://localhost:3000/cb?code=c0de",
      sentAtMillis: Date.UTC(2026, 0, 1),
    });
    expect(all[1]!.subject).toContain("C0DE12");
    expect(all[1]!.html).toContain('href="http://localhost:3000/cb?code=c0de"');
  });

  it("filters by recipient (case-insensitively), kind and sequence", async () => {
    const { provider, send } = setup();
    await send("a@example.com", "password_reset");
    await send("A@example.com", "magic_link");
    expect(provider.outbox.list({ to: "a@EXAMPLE.com" })).toHaveLength(2);
    expect(provider.outbox.list({ kind: "magic_link" })).toHaveLength(1);
    expect(provider.outbox.list({ afterSeq: 1 }).map((e) => e.seq)).toEqual([2]);
    expect(provider.outbox.latest({ to: "a@example.com" })?.kind).toBe("magic_link");
  });

  it("waits for the next matching email, and times out when none comes", async () => {
    const { provider, send } = setup();
    const waiting = provider.outbox.waitFor({ to: "late@example.com" }, { timeoutMs: 2_000 });
    await send("other@example.com", "magic_link");
    await send("late@example.com", "password_reset");
    await expect(waiting).resolves.toMatchObject({ to: ["late@example.com"], kind: "password_reset" });
    await expect(provider.outbox.waitFor({ to: "never@example.com" }, { timeoutMs: 20 })).rejects.toBeInstanceOf(
      OutboxTimeoutError,
    );
  });

  it("numbers emails in the order they were delivered, so one delivered late still comes after what a reader saw", async () => {
    const { provider, send } = setup();
    await send("early@example.com", "password_reset");
    // Held back for a minute (as a scheduled email, or one waiting in the email queue, is).
    await provider.store.transact((tables) => {
      const email = [...tables.emails.values()][0]!;
      tables.emails.set(email.id, {
        ...email,
        outbox: { ...outboxFieldsOf(email), scheduledAtMillis: provider.clock.now() + 60_000 },
      });
    });
    await send("on-time@example.com", "magic_link");
    const seen = provider.outbox.list();
    expect(seen.map((e) => [e.to[0], e.seq])).toEqual([["on-time@example.com", 2]]);
    expect(provider.outbox.list({ afterSeq: 2 })).toEqual([]);
    provider.clock.advance(60_000);
    expect(provider.outbox.list({ afterSeq: seen.at(-1)!.seq }).map((e) => [e.to[0], e.seq])).toEqual([
      ["early@example.com", 3],
    ]);
    expect(provider.outbox.list().map((e) => e.to[0])).toEqual(["on-time@example.com", "early@example.com"]);
    // The same over the control endpoint, as the real service's e2e mailbox reads it.
    const body = (await (await provider.fetch("http://x/__emulator/outbox?after_seq=2")).json()) as {
      items: { to: string[]; seq: number }[];
    };
    expect(body.items.map((e) => [e.to[0], e.seq])).toEqual([["early@example.com", 3]]);
    await send("next@example.com", "magic_link");
    expect(provider.outbox.list({ afterSeq: 3 }).map((e) => [e.to[0], e.seq])).toEqual([["next@example.com", 4]]);
  });

  it("is cleared by clear() and by reset, and sequence numbers keep growing after a clear", async () => {
    const { provider, send } = setup();
    await send("a@example.com", "password_reset");
    await provider.outbox.clear();
    expect(provider.outbox.list()).toEqual([]);
    await send("a@example.com", "password_reset");
    expect(provider.outbox.list()[0]?.seq).toBe(2);
    provider.reset();
    expect(provider.outbox.list()).toEqual([]);
  });

  it("is readable, awaitable and clearable over the control endpoints", async () => {
    const { provider, send } = setup();
    await send("a@example.com", "password_reset");
    const listed = await provider.fetch("http://x/__emulator/outbox?to=a@example.com&kind=password_reset");
    expect(((await listed.json()) as { items: unknown[] }).items).toHaveLength(1);
    const waited = await provider.fetch("http://x/__emulator/outbox/wait?to=a@example.com&timeout_ms=100");
    expect(waited.status).toBe(200);
    const timedOut = await provider.fetch("http://x/__emulator/outbox/wait?to=nobody@example.com&timeout_ms=10");
    expect(timedOut.status).toBe(408);
    const bad = await provider.fetch("http://x/__emulator/outbox?kind=postcard");
    expect(bad.status).toBe(400);
    expect((await provider.fetch("http://x/__emulator/outbox", { method: "DELETE" })).status).toBe(200);
    expect(provider.outbox.list()).toEqual([]);
  });
});
