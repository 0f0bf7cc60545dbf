import { z } from "zod";
import { noQuery, type Operation } from "@authsim/sdk/contract";

/**
 * The request shape the fuzzer builds valid-ish requests from, read off the operation's contract entry
 * (its definition in sdk/src/contract/areas/; design rule 3: arbitraries derive from the schemas), so a new operation is fuzzed with
 * its own schemas as soon as the contract has it.
 */
export interface Shape {
  /** The body a server sends (a superset where client and server take different bodies). */
  body?: z.ZodType;
  /** The narrower body a client may send, drawn twice as often (a server body sent by a client is a SCHEMA_ERROR). */
  clientBody?: z.ZodType;
  query?: z.ZodType;
  /** The body is a form, not JSON (the token endpoint, the form_post OAuth callback: RFC 6749). */
  form?: boolean;
  /** Takes no body (or `{}`): a valid-ish request sends none. */
  noBody?: boolean;
}

/**
 * A body schema that says nothing about its fields (`z.unknown()`: a route that checks the body itself, such as the
 * email sending alternatives) gives no valid-ish bodies: the fuzzer draws from its field vocabulary instead, or, for a
 * DELETE (which the SDKs send without a body), sends none.
 */
function describesFields(schema: z.ZodType): boolean {
  const node = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return Object.keys(node).some((key) => key !== "$schema" && key !== "description");
}

export function shapeOf(operation: Operation): Shape {
  const { body, query, form } = operation.request;
  const shape: Shape = {};
  if (query && query !== noQuery) shape.query = query;
  if (form) shape.form = true;
  if (body === undefined) shape.noBody = true;
  else if (body instanceof z.ZodType) {
    if (describesFields(body)) shape.body = body;
    else if (operation.method === "DELETE") shape.noBody = true;
  } else {
    shape.body = body.server;
    shape.clientBody = body.client;
  }
  return shape;
}
