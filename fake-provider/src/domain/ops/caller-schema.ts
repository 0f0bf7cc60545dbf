import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import type { Auth } from "../auth/caller.ts";
import { schemaError } from "../errors/schema-error.ts";
import type { UserRecord } from "../store/records.ts";

/**
 * For routes whose request schema upstream declares the caller's shape (a user, the `internal` project): a caller
 * that does not fit fails the request's validation, so the answer is SCHEMA_ERROR naming every rule it broke, in the
 * schema's order (user, then project), not USER_AUTHENTICATION_REQUIRED.
 */
export function callerBySchema(
  auth: Auth,
  where: { method: string; pathname: string },
  rules: { user: boolean; internalProject: boolean },
): UserRecord | null {
  const problems: string[] = [];
  if (rules.user && !auth.user) problems.push("auth.user must be defined");
  if (rules.internalProject && auth.project.id !== INTERNAL_PROJECT_ID)
    problems.push(`auth.project.id must be one of the following values: ${INTERNAL_PROJECT_ID}`);
  if (problems.length > 0) throw schemaError(where, problems);
  return auth.user;
}

/** The caller's user, for a route whose schema requires one (and, when asked, the internal project). */
export function signedInBySchema(
  auth: Auth,
  where: { method: string; pathname: string },
  internalProject: boolean,
): UserRecord {
  const user = callerBySchema(auth, where, { user: true, internalProject });
  if (!user) throw schemaError(where, ["auth.user must be defined"]);
  return user;
}
