import type { SentEmailRecord } from "../../domain/store/records.ts";
import type { Store } from "../../domain/store/store.ts";
import { isDelivered } from "../../domain/ops/email-outbox.ts";

/**
 * The outbox as an API for tests and tools (in process, and behind the /__emulator/outbox endpoints): list, filter by
 * recipient and kind, wait for the next matching email (bounded), clear.
 */
export interface OutboxFilter {
  to?: string;
  kind?: SentEmailRecord["kind"];
  projectId?: string;
  /** Only emails sent after this sequence number (see `SentEmailRecord.seq`). */
  afterSeq?: number;
}

export interface Outbox {
  list(filter?: OutboxFilter): SentEmailRecord[];
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
    (f.projectId === undefined || email.projectId === f.projectId) &&
    (f.afterSeq === undefined || email.seq > f.afterSeq)
  );
}

/**
 * `now` is the emulated clock: the outbox shows what was delivered by then, as a mailbox would (not entries that are
 * scheduled for later, paused, cancelled or skipped: GET /emails/outbox lists those, domain/ops/email-outbox.ts).
 */
export function createOutbox(store: Store, now: () => number = () => Number.POSITIVE_INFINITY): Outbox {
  const list = (filter: OutboxFilter = {}) =>
    [...store.read.emails.values()].filter((e) => matches(e, filter) && isDelivered(e, now())).sort((a, b) => a.seq - b.seq);
  return {
    list,
    latest: (filter) => list(filter).at(-1),
    waitFor(filter = {}, options = {}) {
      const found = list(filter)[0];
      if (found) return Promise.resolve(found);
      const timeoutMs = Math.min(options.timeoutMs ?? 5_000, 60_000);
      return new Promise((resolve, reject) => {
        const stop = store.onCommit(() => {
          const email = list(filter)[0];
          if (!email) return;
          stop();
          clearTimeout(timer);
          resolve(email);
        });
        // A real timer on purpose: waiting is about the test's patience, not the emulated clock.
        const timer = setTimeout(() => {
          stop();
          reject(new OutboxTimeoutError(`No email matching ${JSON.stringify(filter)} within ${timeoutMs} ms.`));
        }, timeoutMs);
      });
    },
    clear: () =>
      store.transact((tables) => {
        for (const id of [...tables.emails.values()].map((e) => e.id)) tables.emails.delete(id);
      }),
  };
}
