import type { SentEmailRecord } from "../../domain/store/records.ts";
import type { Store } from "../../domain/store/store.ts";
import { isDelivered, outboxFieldsOf, outboxStatusOf } from "../../domain/ops/emails/email-outbox.ts";
import { waitForCommit } from "../wait-for-commit.ts";

/**
 * The outbox as an API for tests and tools (in process, and behind the /__emulator/outbox endpoints): list, filter by
 * recipient and kind, wait for the next matching email (bounded), clear.
 */
export interface OutboxFilter {
  to?: string;
  kind?: SentEmailRecord["kind"];
  projectId?: string;
  /** Only emails delivered after the one with this sequence number (an email's `seq` in the outbox, below). */
  afterSeq?: number;
}

/** An email not delivered yet: waiting in the queue to be rendered, scheduled for later, or paused. */
export interface QueuedEmail {
  id: string;
  projectId: string;
  /** The addresses as known so far (a user's primary email is decided when the email leaves the queue). */
  to: string[];
  /** null until rendered. */
  subject: string | null;
  status: "preparing" | "scheduled" | "paused";
  /** When it is due (emulator time): rendered after the queue's grace, or sent at its schedule; null while paused. */
  dueAtMillis: number | null;
}

export interface Outbox {
  list(filter?: OutboxFilter): SentEmailRecord[];
  /** The emails still on their way, oldest first (docs/emulator.md, "Timed work"). */
  queued(filter?: Pick<OutboxFilter, "projectId">): QueuedEmail[];
  /** The latest matching email, or undefined. */
  latest(filter?: OutboxFilter): SentEmailRecord | undefined;
  /** Resolves with the first matching email, waiting up to `timeoutMs` (default 5 s) for one to be sent. */
  waitFor(filter?: OutboxFilter, options?: { timeoutMs?: number }): Promise<SentEmailRecord>;
  clear(): Promise<void>;
}

export class OutboxTimeoutError extends Error {
  override readonly name = "OutboxTimeoutError";
}

function matches(email: SentEmailRecord, f: OutboxFilter): boolean {
  return (
    (f.to === undefined || email.to.some((t) => t.toLowerCase() === f.to!.toLowerCase())) &&
    (f.kind === undefined || email.kind === f.kind) &&
    (f.projectId === undefined || email.projectId === f.projectId)
  );
}

/**
 * `now` is the emulated clock: the outbox shows what was delivered by then, as a mailbox would (not entries that are
 * scheduled for later, paused, cancelled, skipped or still waiting in the email queue: GET /emails/outbox lists those,
 * domain/ops/emails/email-outbox.ts).
 *
 * An email's `seq` here is its place in the outbox: the order emails were delivered, which is what `afterSeq` counts
 * from. The store numbers emails as they are created, but a queued, scheduled or paused one is delivered after emails
 * created later, and a reader that waits for "what came after the last email I saw" would never see it (the real
 * service's e2e suite reads its mailbox that way and missed custom emails queued for a second). So each email gets its
 * place the first time the outbox finds it delivered: the store's number when that is past every place given so far
 * (always, for emails delivered as they are sent), else the next number.
 */
/** `grace`: how long a queued email waits before the queue renders it, now (the email queue's, none with the clock frozen). */
export function createOutbox(
  store: Store,
  now: () => number = () => Number.POSITIVE_INFINITY,
  grace: () => number = () => 0,
): Outbox {
  const places = new Map<string, number>();
  let lastPlace = 0;

  const list = (filter: OutboxFilter = {}): SentEmailRecord[] => {
    const delivered: SentEmailRecord[] = [];
    for (const email of store.read.emails.values()) if (isDelivered(email, now())) delivered.push(email);
    const unplaced = delivered.filter((e) => !places.has(e.id)).sort((a, b) => a.seq - b.seq);
    for (const email of unplaced) {
      lastPlace = Math.max(lastPlace + 1, email.seq);
      places.set(email.id, lastPlace);
    }
    // Forget the places of emails gone from the store (cleared, dropped past the outbox's capacity).
    if (places.size > 2 * store.read.emails.size + 64)
      for (const id of places.keys()) if (!store.read.emails.has(id)) places.delete(id);
    const after = filter.afterSeq ?? -1;
    return delivered
      .filter((e) => places.get(e.id)! > after && matches(e, filter))
      .map((e) => (e.seq === places.get(e.id) ? e : { ...e, seq: places.get(e.id)! }))
      .sort((a, b) => a.seq - b.seq);
  };
  const queued = (filter: Pick<OutboxFilter, "projectId"> = {}): QueuedEmail[] => {
    const items: QueuedEmail[] = [];
    const at = now();
    for (const email of store.read.emails.values()) {
      if (filter.projectId !== undefined && email.projectId !== filter.projectId) continue;
      const { status } = outboxStatusOf(email, at);
      if (status !== "preparing" && status !== "scheduled" && status !== "paused") continue;
      const o = outboxFieldsOf(email);
      const dueAtMillis =
        status === "paused"
          ? null
          : status === "preparing"
            ? o.updatedAtMillis + grace()
            : (o.smtp?.nextAttemptAtMillis ?? o.scheduledAtMillis);
      const recipient = o.recipient;
      const to = email.to.length > 0 ? email.to : recipient.type === "user-primary-email" ? [] : [...recipient.emails];
      items.push({
        id: email.id,
        projectId: email.projectId,
        to,
        subject: o.awaitingRender ? null : email.subject,
        status,
        dueAtMillis,
      });
    }
    return items.sort((a, b) => (store.read.emails.get(a.id)?.seq ?? 0) - (store.read.emails.get(b.id)?.seq ?? 0));
  };
  return {
    list,
    queued,
    latest: (filter) => list(filter).at(-1),
    waitFor(filter = {}, options = {}) {
      const timeoutMs = Math.min(options.timeoutMs ?? 5_000, 60_000);
      return waitForCommit(
        store,
        () => list(filter)[0],
        timeoutMs,
        () => new OutboxTimeoutError(`No email matching ${JSON.stringify(filter)} within ${timeoutMs} ms.`),
      );
    },
    clear: () =>
      store.transact((tables) => {
        for (const id of [...tables.emails.values()].map((e) => e.id)) tables.emails.delete(id);
      }),
  };
}
