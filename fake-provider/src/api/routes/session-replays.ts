import {
  sessionReplayBatchRequest,
  sessionReplayChunkParams,
  sessionReplayChunksQuery,
  sessionReplayEventsQuery,
  sessionReplayListQuery,
  sessionReplayParams,
} from "@authsim/sdk/contract";
import * as replays from "../../domain/ops/session-replays.ts";
import { ok, route, type AnyRouteSpec } from "./define.ts";

/** Session replays (domain/ops/session-replays.ts): the client's batch upload and the admin's reads. */
export const sessionReplayRoutes: Record<string, AnyRouteSpec> = {
  sessionReplayBatch: route({ body: sessionReplayBatchRequest, handler: ({ auth, ctx, body }) => ok(replays.uploadSessionReplayBatch(ctx, auth!, body)) }),
  listSessionReplays: route({ query: sessionReplayListQuery, handler: ({ auth, ctx, query }) => ok(replays.listSessionReplays(ctx, auth!.project.id, query)) }),
  listSessionReplayChunks: route({
    params: sessionReplayParams,
    query: sessionReplayChunksQuery,
    handler: ({ auth, ctx, params, query }) => ok(replays.listSessionReplayChunks(ctx, auth!.project.id, params.session_replay_id, query)),
  }),
  getSessionReplayChunkEvents: route({
    params: sessionReplayChunkParams,
    handler: ({ auth, ctx, params }) => ok(replays.sessionReplayChunkEvents(ctx, auth!.project.id, params.session_replay_id, params.chunk_id)),
  }),
  getSessionReplayEvents: route({
    params: sessionReplayParams,
    query: sessionReplayEventsQuery,
    handler: ({ auth, ctx, params, query }) => ok(replays.sessionReplayEvents(ctx, auth!.project.id, params.session_replay_id, query)),
  }),
};
