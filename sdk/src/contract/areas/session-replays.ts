import { z } from "zod";
import { millis, uuidNamed } from "./common.ts";
import { defineOperations, json } from "../define-operations.ts";

/**
 * Session replays (the published SDK's rrweb recorder; the real service's session-replays routes): a client with a
 * user token uploads batches of events; an admin lists replays, their chunks (one per batch) and their events.
 */

export const sessionReplayBatchRequest = z.strictObject({
  browser_session_id: uuidNamed("browser_session_id"),
  session_replay_segment_id: uuidNamed("session_replay_segment_id"),
  batch_id: uuidNamed("batch_id"),
  started_at_ms: millis,
  sent_at_ms: millis,
  events: z.array(z.unknown()),
});
export type SessionReplayBatchRequest = z.infer<typeof sessionReplayBatchRequest>;
export const sessionReplayBatchResponse = z.object({
  session_replay_id: z.string(),
  batch_id: z.string(),
  s3_key: z.string(),
  deduped: z.boolean(),
});

const pagination = z.object({ next_cursor: z.string().nullable() });

export const sessionReplayListQuery = z.strictObject({
  cursor: z.string().optional(),
  limit: z.string().optional(),
  user_ids: z.string().optional(),
  team_ids: z.string().optional(),
  duration_ms_min: z.string().optional(),
  duration_ms_max: z.string().optional(),
  last_event_at_from_millis: z.string().optional(),
  last_event_at_to_millis: z.string().optional(),
  click_count_min: z.string().optional(),
});
export const sessionReplayListItem = z.object({
  id: z.string(),
  project_user: z.object({ id: z.string(), display_name: z.string().nullable(), primary_email: z.string().nullable() }),
  started_at_millis: millis,
  last_event_at_millis: millis,
  chunk_count: z.number().int(),
  event_count: z.number().int(),
});
export const sessionReplayList = z.object({ items: z.array(sessionReplayListItem), pagination });

export const sessionReplayParams = z.strictObject({ session_replay_id: z.string().min(1) });
export const sessionReplayChunkParams = z.strictObject({
  session_replay_id: z.string().min(1),
  chunk_id: z.string().min(1),
});
export const sessionReplayChunksQuery = z.strictObject({ cursor: z.string().optional(), limit: z.string().optional() });
export const sessionReplayEventsQuery = z.strictObject({ offset: z.string().optional(), limit: z.string().optional() });

const chunkBase = {
  id: z.string(),
  batch_id: z.string(),
  session_replay_segment_id: z.string().nullable(),
  event_count: z.number().int(),
  byte_length: z.number().int(),
  first_event_at_millis: millis,
  last_event_at_millis: millis,
  created_at_millis: millis,
};
export const sessionReplayChunkList = z.object({
  items: z.array(z.object({ ...chunkBase, browser_session_id: z.string().nullable() })),
  pagination,
});
export const sessionReplayChunkEvents = z.object({ events: z.array(z.unknown()) });
export const sessionReplayEvents = z.object({
  chunks: z.array(z.object(chunkBase)),
  chunk_events: z.array(z.object({ chunk_id: z.string(), events: z.array(z.unknown()) })),
});

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const sessionReplaysOperations = defineOperations("session-replays", {
  // Session replays: the recorder's uploads and the admin's reads (areas/session-replays.ts).
  sessionReplayBatch: {
    method: "POST",
    path: "/session-replays/batch",
    access: "client",
    body: sessionReplayBatchRequest,
    errors: ["ANALYTICS_NOT_ENABLED", "USER_AUTHENTICATION_REQUIRED"],
    responses: [json(sessionReplayBatchResponse)],
  },
  listSessionReplays: {
    method: "GET",
    path: "/internal/session-replays",
    access: "admin",
    query: sessionReplayListQuery,
    errors: ["ITEM_NOT_FOUND"],
    responses: [json(sessionReplayList)],
  },
  listSessionReplayChunks: {
    method: "GET",
    path: "/internal/session-replays/:session_replay_id/chunks",
    access: "admin",
    params: sessionReplayParams,
    query: sessionReplayChunksQuery,
    errors: ["ITEM_NOT_FOUND"],
    responses: [json(sessionReplayChunkList)],
  },
  getSessionReplayChunkEvents: {
    method: "GET",
    path: "/internal/session-replays/:session_replay_id/chunks/:chunk_id/events",
    access: "admin",
    params: sessionReplayChunkParams,
    errors: ["ITEM_NOT_FOUND"],
    responses: [json(sessionReplayChunkEvents)],
  },
  getSessionReplayEvents: {
    method: "GET",
    path: "/internal/session-replays/:session_replay_id/events",
    access: "admin",
    params: sessionReplayParams,
    query: sessionReplayEventsQuery,
    errors: ["ITEM_NOT_FOUND"],
    responses: [json(sessionReplayEvents)],
  },
});
