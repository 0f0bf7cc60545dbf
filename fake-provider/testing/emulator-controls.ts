import type { SentEmailRecord } from "../src/domain/store/records.ts";

/**
 * The emulator's control endpoints (README "Control endpoints") over HTTP, for tests that drive a dev server from
 * outside its process: read the outbox, ask for a user's current TOTP code.
 */
export interface EmailQuery {
  to?: string;
  kind?: SentEmailRecord["kind"];
  /** Only emails sent after this sequence number (an earlier email's `seq`). */
  afterSeq?: number;
}

export interface EmulatorControls {
  /** The next email matching `query` (the emulator waits up to `timeoutMillis` for one to be sent). */
  waitForEmail(query: EmailQuery, timeoutMillis?: number): Promise<SentEmailRecord>;
  /** Every email matching `query`, oldest first. */
  emails(query?: EmailQuery): Promise<SentEmailRecord[]>;
  /** The code the user's authenticator app would show now, by the emulator's clock. */
  totpCode(userId: string): Promise<string>;
}

async function ok<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

function emailSearch(query: EmailQuery): string {
  const params = new URLSearchParams();
  if (query.to) params.set("to", query.to);
  if (query.kind) params.set("kind", query.kind);
  if (query.afterSeq !== undefined) params.set("after_seq", String(query.afterSeq));
  return params.toString();
}

export function emulatorControls(baseUrl: string): EmulatorControls {
  const controls = `${baseUrl}/__emulator`;
  return {
    async waitForEmail(query, timeoutMillis = 10_000) {
      return await ok(await fetch(`${controls}/outbox/wait?${emailSearch(query)}&timeout_ms=${timeoutMillis}`));
    },
    async emails(query = {}) {
      return (await ok<{ items: SentEmailRecord[] }>(await fetch(`${controls}/outbox?${emailSearch(query)}`))).items;
    },
    async totpCode(userId) {
      return (await ok<{ code: string }>(await fetch(`${controls}/users/${encodeURIComponent(userId)}/totp`))).code;
    },
  };
}
