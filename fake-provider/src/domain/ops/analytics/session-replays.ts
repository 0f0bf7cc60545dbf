import type { SessionReplayBatchRequest } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { Auth } from "../../auth/caller.ts";
import { knownError } from "../../errors/known-error.ts";
import type { SessionReplayChunkRecord, SessionReplayRecord } from "../../store/session-replay-records.ts";
import type { OpContext } from "../context.ts";
import { renderConfig } from "../config/config-render.ts";
import { refusal } from "../../errors/refusals.ts";

/**
 * Session replays (docs/session-replays.md): POST /session-replays/batch stores a batch of rrweb events as a chunk of
 * the user's current replay; the admin reads replays, chunks and events under /internal/session-replays. The real
 * service keeps events gzipped in S3; here they stay in the store, so each project keeps at most
 * MAX_EVENTS_PER_PROJECT events: past it the oldest chunks are dropped (and replays left with none). Dropping rather
 * than refusing because the recorder uploads in the background for as long as a page is open: a dev server left
 * running must neither grow without bound nor start failing the app's requests (the outbox does the same).
 */

/** A batch joins the user's replay on the same session if one had a batch within this long (the real service's). */
export const SESSION_IDLE_TIMEOUT_MS = 3 * 60 * 1000;
/** … and started less than this long ago. */
export const MAX_SESSION_DURATION_MS = 12 * 60 * 60 * 1000;
const MAX_BODY_BYTES = 1_000_000;
const MAX_EVENTS_PER_BATCH = 5_000;
export const MAX_EVENTS_PER_PROJECT = 200_000;

/** The user's replay on this session that is still going (a batch within the idle timeout), if any. */
export function recentReplayOf(
  ctx: OpContext,
  projectId: string,
  refreshTokenId: string,
): SessionReplayRecord | undefined {
  return [...ctx.tables.sessionReplays.values()]
    .filter(
      (r) =>
        r.projectId === projectId &&
        r.refreshTokenId === refreshTokenId &&
        r.updatedAtMillis >= ctx.now - SESSION_IDLE_TIMEOUT_MS &&
        r.startedAtMillis >= ctx.now - MAX_SESSION_DURATION_MS,
    )
    .sort((a, b) => b.updatedAtMillis - a.updatedAtMillis)[0];
}

export function analyticsEnabled(ctx: OpContext, auth: Auth): boolean {
  const apps = renderConfig(ctx, auth.project).apps as
    { installed?: Record<string, { enabled?: unknown } | undefined> } | undefined;
  return apps?.installed?.analytics?.enabled === true;
}

/** The earliest and latest numeric `timestamp` of the events, or the fallback when none has one. */
function eventTimes(events: unknown[], fallback: number): { first: number; last: number } {
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (typeof e !== "object" || e === null || !("timestamp" in e)) continue;
    const ts = (e as { timestamp: unknown }).timestamp;
    if (typeof ts !== "number" || !Number.isFinite(ts)) continue;
    first = Math.min(first, ts);
    last = Math.max(last, ts);
  }
  return Number.isFinite(first) && Number.isFinite(last) ? { first, last } : { first: fallback, last: fallback };
}

const chunksOf = (ctx: OpContext, replayId: string) =>
  [...ctx.tables.sessionReplayChunks.values()]
    .filter((c) => c.replayId === replayId)
    .sort((a, b) => a.firstEventAtMillis - b.firstEventAtMillis || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

export function uploadSessionReplayBatch(ctx: OpContext, auth: Auth, body: SessionReplayBatchRequest) {
  if (!analyticsEnabled(ctx, auth)) throw knownError("ANALYTICS_NOT_ENABLED");
  if (!auth.user) throw knownError("USER_AUTHENTICATION_REQUIRED");
  if (!auth.sessionId) throw refusal("refreshTokenRequiredSessionReplays");
  const byteLength = JSON.stringify(body.events).length;
  if (byteLength > MAX_BODY_BYTES) throw refusal("requestBodyTooLargeMax", MAX_BODY_BYTES);
  if (body.events.length === 0) throw refusal("eventsEmpty");
  if (body.events.length > MAX_EVENTS_PER_BATCH) throw refusal("tooManyEventsMax", MAX_EVENTS_PER_BATCH);

  const projectId = auth.project.id;
  const { first, last } = eventTimes(body.events, body.sent_at_ms);
  const recent = recentReplayOf(ctx, projectId, auth.sessionId);
  const replay: SessionReplayRecord = recent
    ? {
        ...recent,
        startedAtMillis: Math.min(recent.startedAtMillis, first),
        lastEventAtMillis: Math.max(recent.lastEventAtMillis, last),
        updatedAtMillis: ctx.now,
      }
    : {
        id: uuid(ctx.random),
        projectId,
        userId: auth.user.id,
        refreshTokenId: auth.sessionId,
        startedAtMillis: first,
        lastEventAtMillis: last,
        updatedAtMillis: ctx.now,
      };
  ctx.tables.sessionReplays.set(replay.id, replay);
  const s3Key = `session-replays/${projectId}/${auth.branchId}/${replay.id}/${body.batch_id}.json.gz`;
  const result = (deduped: boolean) => ({
    session_replay_id: replay.id,
    batch_id: body.batch_id,
    s3_key: s3Key,
    deduped,
  });
  if (chunksOf(ctx, replay.id).some((c) => c.batchId === body.batch_id)) return result(true);

  const chunk: SessionReplayChunkRecord = {
    id: uuid(ctx.random),
    projectId,
    replayId: replay.id,
    batchId: body.batch_id,
    segmentId: body.session_replay_segment_id,
    browserSessionId: body.browser_session_id,
    eventCount: body.events.length,
    byteLength,
    firstEventAtMillis: first,
    lastEventAtMillis: last,
    createdAtMillis: ctx.now,
    events: body.events,
  };
  ctx.tables.sessionReplayChunks.set(chunk.id, chunk);
  dropOldestPastCap(ctx, projectId);
  return result(false);
}

/**
 * The real service links each analytics event to the session's recent replay; its `$click`s count on the replay, so the
 * replay list can filter by click_count_min (domain/ops/analytics/analytics-events.ts calls this for each uploaded batch).
 */
export function countReplayClicks(ctx: OpContext, replay: SessionReplayRecord, clicks: number): void {
  if (clicks > 0)
    ctx.tables.sessionReplays.set(replay.id, { ...replay, clickCount: (replay.clickCount ?? 0) + clicks });
}

/** Keeps a project's stored events under MAX_EVENTS_PER_PROJECT (see the file comment), oldest chunk first. */
function dropOldestPastCap(ctx: OpContext, projectId: string): void {
  const chunks = [...ctx.tables.sessionReplayChunks.values()].filter((c) => c.projectId === projectId);
  let total = chunks.reduce((n, c) => n + c.eventCount, 0);
  // The table keeps insertion order, so the first chunks are the oldest.
  for (const chunk of chunks) {
    if (total <= MAX_EVENTS_PER_PROJECT) break;
    ctx.tables.sessionReplayChunks.delete(chunk.id);
    total -= chunk.eventCount;
    if (!chunks.some((c) => c.replayId === chunk.replayId && ctx.tables.sessionReplayChunks.get(c.id)))
      ctx.tables.sessionReplays.delete(chunk.replayId);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const csv = (raw: string | undefined) =>
  raw
    ? raw
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];
function csvUuids(name: string, raw: string | undefined): string[] {
  const values = csv(raw);
  if (values.some((v) => !UUID.test(v))) throw refusal("notUuidValues", name);
  return values;
}
function nonNegativeInt(name: string, raw: string | undefined): number | null {
  if (!raw) return null;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw refusal("notNonNegativeInteger", name);
  return value;
}
function timestamp(name: string, raw: string | undefined): number | null {
  if (!raw) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw refusal("notNonNegativeTimestamp", name);
  return value;
}
/** The real service's lenient limit: a number clamped to [1, max], anything else the default. */
function clampedLimit(raw: string | undefined, fallback: number, max: number): number {
  const parsed = Number.parseInt(raw ?? String(fallback), 10);
  return Math.max(1, Math.min(max, Number.isFinite(parsed) ? parsed : fallback));
}

function requireReplay(ctx: OpContext, projectId: string, id: string): SessionReplayRecord {
  const replay = ctx.tables.sessionReplays.get(id);
  if (!replay || replay.projectId !== projectId || !ctx.tables.users.get(replay.userId))
    throw knownError("ITEM_NOT_FOUND", { item_id: id });
  return replay;
}

export interface SessionReplayListQuery {
  cursor?: string | undefined;
  limit?: string | undefined;
  user_ids?: string | undefined;
  team_ids?: string | undefined;
  duration_ms_min?: string | undefined;
  duration_ms_max?: string | undefined;
  last_event_at_from_millis?: string | undefined;
  last_event_at_to_millis?: string | undefined;
  click_count_min?: string | undefined;
}

/** GET /internal/session-replays: latest activity first, with the real service's filters and checks. */
export function listSessionReplays(ctx: OpContext, projectId: string, query: SessionReplayListQuery) {
  const limit = clampedLimit(query.limit, 50, 200);
  const userIds = csvUuids("user_ids", query.user_ids);
  const teamIds = csvUuids("team_ids", query.team_ids);
  const durationMin = nonNegativeInt("duration_ms_min", query.duration_ms_min);
  const durationMax = nonNegativeInt("duration_ms_max", query.duration_ms_max);
  const clickCountMin = nonNegativeInt("click_count_min", query.click_count_min);
  const from = timestamp("last_event_at_from_millis", query.last_event_at_from_millis);
  const to = timestamp("last_event_at_to_millis", query.last_event_at_to_millis);
  if (durationMin !== null && durationMax !== null && durationMin > durationMax) throw refusal("durationMsMinLessThan");
  if (from !== null && to !== null && from > to) throw refusal("lastEventAtFromMillis");
  const cursor = query.cursor ? requireReplay(ctx, projectId, query.cursor) : null;
  const inTeams = (userId: string) => teamIds.some((t) => ctx.tables.teamMemberships.get(`${t}:${userId}`));
  const rows = [...ctx.tables.sessionReplays.values()]
    .filter((r) => r.projectId === projectId && ctx.tables.users.get(r.userId))
    .filter((r) => userIds.length === 0 || userIds.includes(r.userId))
    .filter((r) => teamIds.length === 0 || inTeams(r.userId))
    .filter((r) => (from === null || r.lastEventAtMillis >= from) && (to === null || r.lastEventAtMillis <= to))
    .filter((r) => clickCountMin === null || (r.clickCount ?? 0) >= clickCountMin)
    .filter(
      (r) =>
        (durationMin === null || r.lastEventAtMillis - r.startedAtMillis >= durationMin) &&
        (durationMax === null || r.lastEventAtMillis - r.startedAtMillis <= durationMax),
    )
    .filter(
      (r) =>
        !cursor ||
        r.lastEventAtMillis < cursor.lastEventAtMillis ||
        (r.lastEventAtMillis === cursor.lastEventAtMillis && r.id < cursor.id),
    )
    .sort((a, b) => b.lastEventAtMillis - a.lastEventAtMillis || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const page = rows.slice(0, limit);
  return {
    items: page.map((r) => {
      const user = ctx.tables.users.get(r.userId)!;
      const chunks = chunksOf(ctx, r.id);
      return {
        id: r.id,
        project_user: { id: user.id, display_name: user.displayName, primary_email: user.primaryEmail },
        started_at_millis: r.startedAtMillis,
        last_event_at_millis: r.lastEventAtMillis,
        chunk_count: chunks.length,
        event_count: chunks.reduce((n, c) => n + c.eventCount, 0),
      };
    }),
    pagination: { next_cursor: rows.length > limit ? page.at(-1)!.id : null },
  };
}

const chunkView = (c: SessionReplayChunkRecord) => ({
  id: c.id,
  batch_id: c.batchId,
  session_replay_segment_id: c.segmentId,
  event_count: c.eventCount,
  byte_length: c.byteLength,
  first_event_at_millis: c.firstEventAtMillis,
  last_event_at_millis: c.lastEventAtMillis,
  created_at_millis: c.createdAtMillis,
});

/** GET /internal/session-replays/{id}/chunks: in event order, cursor = the last chunk id of the previous page. */
export function listSessionReplayChunks(
  ctx: OpContext,
  projectId: string,
  replayId: string,
  query: { cursor?: string | undefined; limit?: string | undefined },
) {
  requireReplay(ctx, projectId, replayId);
  const limit = clampedLimit(query.limit, 100, 500);
  let chunks = chunksOf(ctx, replayId);
  if (query.cursor) {
    const at = chunks.findIndex((c) => c.id === query.cursor);
    if (at < 0) throw knownError("ITEM_NOT_FOUND", { item_id: query.cursor });
    chunks = chunks.slice(at + 1);
  }
  const page = chunks.slice(0, limit);
  return {
    items: page.map((c) => ({ ...chunkView(c), browser_session_id: c.browserSessionId })),
    pagination: { next_cursor: chunks.length > limit ? page.at(-1)!.id : null },
  };
}

/** GET /internal/session-replays/{id}/chunks/{chunk_id}/events. */
export function sessionReplayChunkEvents(ctx: OpContext, projectId: string, replayId: string, chunkId: string) {
  const chunk = ctx.tables.sessionReplayChunks.get(chunkId);
  if (!chunk || chunk.projectId !== projectId || chunk.replayId !== replayId)
    throw knownError("ITEM_NOT_FOUND", { item_id: chunkId });
  return { events: chunk.events };
}

/** GET /internal/session-replays/{id}/events: every chunk's metadata, and the events of the chunks offset…offset+limit. */
export function sessionReplayEvents(
  ctx: OpContext,
  projectId: string,
  replayId: string,
  query: { offset?: string | undefined; limit?: string | undefined },
) {
  requireReplay(ctx, projectId, replayId);
  const chunks = chunksOf(ctx, replayId);
  const parsedOffset = query.offset !== undefined ? Number.parseInt(query.offset, 10) : 0;
  const offset = Number.isFinite(parsedOffset) && parsedOffset >= 0 ? parsedOffset : 0;
  const parsedLimit = query.limit !== undefined ? Number.parseInt(query.limit, 10) : chunks.length;
  const limit = Number.isFinite(parsedLimit) && parsedLimit >= 1 ? parsedLimit : chunks.length;
  return {
    chunks: chunks.map(chunkView),
    chunk_events: chunks
      .slice(offset, Math.min(offset + limit, chunks.length))
      .map((c) => ({ chunk_id: c.id, events: c.events })),
  };
}
