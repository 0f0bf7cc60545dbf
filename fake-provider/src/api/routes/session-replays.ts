import * as replays from "../../domain/ops/analytics/session-replays.ts";
import { ok, type RouteTable } from "./define.ts";

/** Session replays (domain/ops/analytics/session-replays.ts): the client's batch upload and the admin's reads. */
export const sessionReplayRoutes: RouteTable = {
  sessionReplayBatch: { handler: ({ auth, ctx, body }) => ok(replays.uploadSessionReplayBatch(ctx, auth, body)) },
  listSessionReplays: {
    handler: ({ auth, ctx, query }) => ok(replays.listSessionReplays(ctx, auth.project.id, query)),
  },
  listSessionReplayChunks: {
    handler: ({ auth, ctx, params, query }) =>
      ok(replays.listSessionReplayChunks(ctx, auth.project.id, params.session_replay_id, query)),
  },
  getSessionReplayChunkEvents: {
    handler: ({ auth, ctx, params }) =>
      ok(replays.sessionReplayChunkEvents(ctx, auth.project.id, params.session_replay_id, params.chunk_id)),
  },
  getSessionReplayEvents: {
    handler: ({ auth, ctx, params, query }) =>
      ok(replays.sessionReplayEvents(ctx, auth.project.id, params.session_replay_id, query)),
  },
};
