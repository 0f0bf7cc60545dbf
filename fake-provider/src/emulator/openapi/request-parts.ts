import { z } from "zod";
import type { AccessType } from "@authsim/sdk/contract";
import type { Auth } from "../../api/auth/parse-auth.ts";
import { noBody, noQuery, type AnyRouteSpec } from "../../api/routes/define.ts";
import { implementedRoutes } from "../../api/routes/index.ts";

/**
 * What an operation accepts, read from the schemas its route parses with (api/routes/<area>.ts, mostly the contract's own):
 * so the document says exactly what the emulator checks. Operations not implemented yet have no route and no parts.
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

// Body choosers (e.g. PATCH /users/me) look only at who is calling, so a caller of each type is enough to ask them.
const callerOf = (type: AccessType) => ({ type }) as unknown as Auth;

function bodySchema(spec: AnyRouteSpec): z.ZodType {
  const body = spec.body ?? noBody;
  if (typeof body !== "function") return body;
  const client = body(callerOf("client"));
  const server = body(callerOf("server"));
  return client === server ? client : z.union([client, server]).describe("The first form for client access; the second for server and admin access.");
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
  const spec = implementedRoutes[operationId];
  if (!spec) return null;
  return {
    // A GET has no body, whatever the route's schema lets through (the OAuth callback reads its query instead).
    body: method === "GET" ? null : definedBody(bodySchema(spec)),
    query: spec.query && spec.query !== noQuery ? spec.query : null,
    params: spec.params ?? null,
  };
}
