import { knownError } from "./known-error.ts";

/**
 * The real service's SCHEMA_ERROR: one line per problem under the method and path. Thrown by the HTTP adapter's body
 * checks (api/http/parse.ts) and by the few operations that check a request's shape themselves.
 */
export function schemaError(where: { method: string; pathname: string }, problems: string[]) {
  const message = `Request validation failed on ${where.method} ${where.pathname}:\n${problems.map((p) => `  - ${p}`).join("\n")}`;
  return knownError("SCHEMA_ERROR", { message });
}
