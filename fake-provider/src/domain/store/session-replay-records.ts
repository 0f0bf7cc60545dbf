/**
 * Session replays (domain/ops/analytics/session-replays.ts): a replay is one user's recording on one session (refresh token); each
 * uploaded batch is a chunk holding its events. Plain JSON values, replaced and never mutated (see records.ts).
 */
export interface SessionReplayRecord {
  id: string;
  projectId: string;
  userId: string;
  refreshTokenId: string;
  startedAtMillis: number;
  lastEventAtMillis: number;
  /** When a batch last arrived (the idle timeout that starts a new replay counts from here). */
  updatedAtMillis: number;
  /** `$click` analytics events sent on the replay's session while it was recent (absent: none). */
  clickCount?: number;
}

export interface SessionReplayChunkRecord {
  id: string;
  projectId: string;
  replayId: string;
  batchId: string;
  segmentId: string;
  browserSessionId: string;
  eventCount: number;
  /** The size of the events as JSON (the real service counts its gzipped object; there is no object store here). */
  byteLength: number;
  firstEventAtMillis: number;
  lastEventAtMillis: number;
  createdAtMillis: number;
  events: unknown[];
}
