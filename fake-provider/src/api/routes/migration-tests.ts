import { migrationTestsIndex, smartRouteHandlerMigrationTest } from "../../domain/ops/internal/migration-tests.ts";
import { text } from "../http/respond.ts";
import type { RouteTable } from "./define.ts";

/** Upstream's migration-test routes: plain text (domain/ops/internal/migration-tests.ts). */
export const migrationTestRoutes: RouteTable = {
  migrationTests: { handler: ({ request }) => text(migrationTestsIndex(request.url)) },
  smartRouteHandlerMigrationTest: { handler: ({ query }) => text(smartRouteHandlerMigrationTest(query.queryParamNew)) },
};
