import { z } from "zod";
import { noBody, noQuery, operationsById, type OperationRequest } from "@authsim/sdk/contract";
import { implementedRoutes } from "../../api/routes/index.ts";

/**
 * What an operation accepts, read from its contract definition (sdk/src/contract/areas/<area>.ts), the schemas the mount parses
 * its requests with: so the document says exactly what the emulator checks. Operations not implemented yet have no
 * route and no parts.
 */
export interface RequestBody {
  schema: z.ZodType;
  /** The route's schema before its "or nothing" part was dropped: its contract name is the body's name. */
  origin: z.ZodType;
  /** False when the route also accepts no body at all. */
  required: boolean;
}

export interface RequestParts {
  body: RequestBody | null;
  query: z.ZodType | null;
  params: z.ZodType | null;
}

function bodySchema(request: OperationRequest): z.ZodType {
  const body = request.body ?? noBody;
  if (body instanceof z.ZodType) return body;
  return body.client === body.server
    ? body.client
    : z
        .union([body.client, body.server])
        .describe("The first form for client access; the second for server and admin access.");
}

/** The body without its "or nothing" alternative; null for routes that take none (`noBody`, or only `{}`). */
function definedBody(schema: z.ZodType): RequestBody | null {
  let inner = schema;
  let required = true;
  if (inner instanceof z.ZodOptional) {
    inner = inner.unwrap() as z.ZodType;
    required = false;
  }
  if (inner instanceof z.ZodUnion) {
    const options = (inner.options as readonly z.ZodType[]).filter((o) => !(o instanceof z.ZodUndefined));
    if (options.length < inner.options.length) {
      required = false;
      if (options.length === 0) return null;
      inner = options.length === 1 ? options[0]! : z.union(options as [z.ZodType, ...z.ZodType[]]);
    }
  }
  if (inner instanceof z.ZodObject && Object.keys(inner.shape).length === 0 && !required) return null;
  return { schema: inner, origin: schema, required };
}

export function requestParts(operationId: string, method: string): RequestParts | null {
  const request = operationsById.get(operationId)?.request;
  if (!request || !(operationId in implementedRoutes)) return null;
  return {
    // A GET has no body, whatever the contract's schema lets through (the OAuth callback reads its query instead).
    body: method === "GET" ? null : definedBody(bodySchema(request)),
    query: request.query && request.query !== noQuery ? request.query : null,
    params: request.params ?? null,
  };
}
