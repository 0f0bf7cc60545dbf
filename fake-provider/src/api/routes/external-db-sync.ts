import * as sync from "../../domain/ops/db-sync/db-sync-endpoints.ts";
import { dbSyncStatus } from "../../domain/ops/db-sync/db-sync-status.ts";
import { mapStep } from "../../domain/ops/outside-lock.ts";
import { requiredHeader } from "../http/parse.ts";
import { ok, type RouteTable } from "./define.ts";

/** The external database sync's internals (domain/ops/db-sync/db-sync-endpoints.ts, db-sync-status.ts). */
export const externalDbSyncRoutes: RouteTable = {
  dbSyncFuseboxGet: { handler: ({ auth, ctx }) => ok(sync.getDbSyncFusebox(ctx, auth)) },
  dbSyncFuseboxSet: { handler: ({ auth, ctx, body }) => ok(sync.setDbSyncFusebox(ctx, auth, body)) },
  dbSyncPoller: {
    handler: ({ auth, ctx, query, request }) =>
      mapStep(
        sync.runDbSyncPoller(ctx, auth, request.headers.get("authorization"), query.maxDurationMs),
        (answer) => ok(answer),
        ctx,
      ),
  },
  dbSyncSequencer: {
    handler: ({ auth, ctx, query, request }) =>
      ok(sync.runDbSyncSequencer(ctx, auth, request.headers.get("authorization"), query.maxDurationMs)),
  },
  dbSyncEngine: {
    handler: ({ ctx, body, request }) =>
      mapStep(
        sync.runDbSyncEngine(ctx, requiredHeader(request, "upstash-signature"), body.tenancyId),
        (answer) => ok(answer),
        ctx,
      ),
  },
  dbSyncStatus: {
    handler: ({ auth, ctx, query }) =>
      mapStep(dbSyncStatus(ctx, auth, query.scope ?? "tenancy"), (answer) => ok(answer), ctx),
  },
};
