import { z } from "zod";
import type { ConcreteKnownErrorCode } from "./error-codes.ts";
import type { AccessType } from "./headers.ts";

/**
 * What an operation accepts and which known errors it may refuse with. A module of its own below the area files that
 * define operations (define-operations.ts), as response-kinds.ts is for the answers.
 */
export interface OperationRequest {
  /** The `:name` parts of the path; absent: any strings (the route looks them up itself). */
  readonly params?: z.ZodType;
  /** Absent: no query keys at all (protocol.md §1: an unknown query key is a SCHEMA_ERROR). */
  readonly query?: z.ZodType;
  /** Absent: no body, or `{}` (the published SDK sends `{}` on some DELETEs). */
  readonly body?: z.ZodType | CallerBodies;
  /**
   * Request headers the operation requires, checked with the other parts (one SCHEMA_ERROR names every problem, a
   * missing one as `headers.<name> must be defined`): the integrations' Basic credentials. Names are lower case.
   */
  readonly headers?: z.ZodType;
  /** The body is a form (application/x-www-form-urlencoded, RFC 6749), not JSON. */
  readonly form?: true;
  /**
   * The known errors the operation's own code may answer, beyond the ones every request may get before it reaches the
   * operation (authentication and access, BODY_PARSING_ERROR, the SCHEMA_ERROR of its parts).
   */
  readonly errors: readonly ConcreteKnownErrorCode[];
}

/**
 * A body that depends on who calls (e.g. PATCH /users/me takes more fields from a server): the client one for client
 * access, the server one for server and admin access, and for a caller without project authentication.
 */
export interface CallerBodies<C extends z.ZodType = z.ZodType, S extends z.ZodType = z.ZodType> {
  readonly kind: "byCaller";
  readonly client: C;
  readonly server: S;
}

export const byCaller = <C extends z.ZodType, S extends z.ZodType>(client: C, server: S): CallerBodies<C, S> => ({
  kind: "byCaller",
  client,
  server,
});

/** The defaults of an operation that does not name a part. */
export const noQuery = z.strictObject({});
export const noBody = z.union([z.undefined(), z.strictObject({})]);
export const anyParams = z.record(z.string(), z.string());

/** The body schema a caller of this access type is held to. */
export function bodyForCaller(request: OperationRequest, accessType: AccessType | null): z.ZodType {
  const body = request.body ?? noBody;
  if (body instanceof z.ZodType) return body;
  return accessType === "client" ? body.client : body.server;
}
