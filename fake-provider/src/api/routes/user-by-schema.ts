import type { Auth } from "../auth/parse-auth.ts";
import { schemaError } from "../http/parse.ts";
import type { UserRecord } from "../../domain/store/records.ts";

/**
 * For routes whose request schema upstream declares with a user (password set and update, the legacy verification
 * email): without one, the request fails its schema, and SCHEMA_ERROR names auth.user, so this is parsing.
 */
export function userBySchema(auth: Auth, request: Request): UserRecord {
  if (auth.user) return auth.user;
  throw schemaError({ method: request.method, pathname: new URL(request.url).pathname }, ["auth.user must be defined"]);
}
