import { z } from "zod";
import { defineOperations, text } from "../define-operations.ts";

/**
 * The real service's demonstration routes for its API-version migrations (hidden from its docs): plain text that says
 * what the route would do in each version. ops/internal/migration-tests.ts holds the texts.
 */

/** Upstream's index declares no query: any is accepted and ignored. */
export const migrationTestsQuery = z.looseObject({});
export const smartRouteHandlerMigrationQuery = z.strictObject({ queryParamNew: z.string().optional() });

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const migrationTestsOperations = defineOperations("migration-tests", {
  migrationTests: {
    method: "GET",
    path: "/migration-tests",
    access: "none",
    query: migrationTestsQuery,
    errors: [],
    responses: [text("Plain text: the request's URL and the list of migration tests, as absolute URLs.")],
  },
  smartRouteHandlerMigrationTest: {
    method: "GET",
    path: "/migration-tests/smart-route-handler",
    access: "none",
    query: smartRouteHandlerMigrationQuery,
    errors: ["SCHEMA_ERROR"],
    responses: [text("Plain text: the query parameter given (or a note that none was) and what each API version did.")],
  },
});
