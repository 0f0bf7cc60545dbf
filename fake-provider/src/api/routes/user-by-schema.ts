import type { Auth } from "../auth/parse-auth.ts";
import { urlOf } from "../http/request-url.ts";
import { signedInBySchema } from "../../domain/ops/caller-schema.ts";
import type { UserRecord } from "../../domain/store/records.ts";

/** The method and path a SCHEMA_ERROR names. */
export const where = (request: Request) => ({ method: request.method, pathname: urlOf(request).pathname });

/**
 * For routes whose request schema upstream declares with a user (password set and update, the legacy verification
 * email): without one, the request fails its schema, and SCHEMA_ERROR names auth.user, so this is parsing.
 */
export function userBySchema(auth: Auth, request: Request): UserRecord {
  return signedInBySchema(auth, where(request), false);
}
