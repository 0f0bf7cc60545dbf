import type { z } from "zod";
import {
  answerSchema,
  operationPath,
  type AnswerSchema,
  type BodyCaller,
  type OperationCallParts,
} from "../contract/operation-calls.ts";
import { operationsById, type OperationId } from "../contract/operations.ts";
import type { BareRequestOptions, QueryValue, RequestOptions, Transport, TransportResponse } from "./transport.ts";

export { answerSchema, operationPath, type AnswerSchema, type BodyCaller } from "../contract/operation-calls.ts";

/**
 * Calls a contract operation by id (issue 18): method and path come from the operation's entry in
 * definition (`sdk/src/contract/areas/<area>.ts`), its `:params` are filled in and URL-encoded, and the body is typed as the input of
 * the operation's body schema for the caller. It sits beside the transport, not in the contract, because
 * it is app-side code: the contract describes the wire and knows no transport (scripts/check-imports.ts), while this is
 * a thin typed front of `Transport.request`, whose semantics (headers, token refresh, retries, error decoding) it
 * leaves alone: it builds the same `(path, RequestOptions)` a hand-written call would.
 *
 * The caller fixes which of a per-caller body (`byCaller`) a call site is typed against: `asClient`
 * for the client app's calls, `asServer` for the server and admin apps' (an admin is held to the server body, as
 * `bodyForCaller` holds it). It is a compile-time choice per call site, not the transport's runtime access type: a
 * client-app call made by a server app sends the body the client app builds, which the server schema also accepts.
 */

/** The session part of a call: which user's tokens to send, and whether an anonymous user may answer. */
export type CallAuth = Pick<RequestOptions, "session" | "allowAnonymousUser">;

export type CallOptions<Id extends OperationId, Caller extends BodyCaller> = CallAuth & OperationCallParts<Id, Caller>;

/** The `(path, RequestOptions)` the transport gets for a call: exported for the tests that pin it. */
export function operationRequest(
  id: OperationId,
  options: CallAuth & { params?: unknown; query?: unknown; body?: unknown },
): { path: string; init: RequestOptions } {
  const op = operationsById.get(id);
  if (!op) throw new Error(`Not a contract operation: ${id}`);
  const { params, query, body, ...auth } = options;
  const init: RequestOptions = { ...auth, method: op.method };
  if (query !== undefined) init.query = query as Record<string, QueryValue>;
  if (body !== undefined) init.body = body;
  return { path: operationPath(id, params as Readonly<Record<string, string>> | undefined), init };
}

export interface OperationCaller<Caller extends BodyCaller> {
  /** Sends the operation's request; answers what `Transport.request` answers (a known error is thrown as today). */
  send<Id extends OperationId>(
    transport: Transport,
    id: Id,
    options: CallOptions<Id, Caller>,
  ): Promise<TransportResponse>;
  /** As `send`, then parses the answer's JSON with the operation's answer schema for this caller (`Transport.requestJson`). */
  json<Id extends OperationId>(
    transport: Transport,
    id: Id,
    options: CallOptions<Id, Caller>,
  ): Promise<z.output<AnswerSchema<Id, Caller>>>;
  /**
   * As `json`, with a schema the call site chooses: where the view depends on the app at run time (a client-app call
   * made by a server app parses the server view) or one call serves the user and team operations.
   */
  jsonAs<Id extends OperationId, S extends z.ZodType>(
    transport: Transport,
    id: Id,
    options: CallOptions<Id, Caller>,
    schema: S,
  ): Promise<z.output<S>>;
}

function callerFor<Caller extends BodyCaller>(caller: Caller): OperationCaller<Caller> {
  return {
    // async, so a missing path parameter rejects as the transport's own failures do.
    async send(transport, id, options) {
      const { path, init } = operationRequest(id, options);
      return transport.request(path, init);
    },
    async json(transport, id, options) {
      const { path, init } = operationRequest(id, options);
      return transport.requestJson(path, init, answerSchema(id, caller)) as Promise<never>;
    },
    async jsonAs(transport, id, options, schema) {
      const { path, init } = operationRequest(id, options);
      return transport.requestJson(path, init, schema);
    },
  };
}

/** The options of a plain-HTTP call: the form body and its content type are the caller's (OAuth token endpoint). */
export type BareCallOptions<Id extends OperationId> = Pick<OperationCallParts<Id, BodyCaller>, "params" | "query"> &
  Pick<BareRequestOptions, "headers" | "body">;

/**
 * Sends a plain-HTTP operation (the OAuth authorize and token endpoints, the JWKS: protocol.md §4.4) through
 * `Transport.requestBare`, without any x-stack header, as those calls always were.
 */
export async function sendBare<Id extends OperationId>(
  transport: Transport,
  id: Id,
  options: BareCallOptions<Id>,
): Promise<TransportResponse> {
  const op = operationsById.get(id);
  if (!op) throw new Error(`Not a contract operation: ${id}`);
  const { params, query, headers, body } = options as {
    params?: Readonly<Record<string, string>>;
    query?: Record<string, QueryValue>;
    headers?: Record<string, string>;
    body?: string;
  };
  const bare: BareRequestOptions = { method: op.method };
  if (headers !== undefined) bare.headers = headers;
  if (body !== undefined) bare.body = body;
  if (query !== undefined) bare.query = query;
  return transport.requestBare(operationPath(id, params), bare);
}

/** For the client app's calls: a per-caller body is the client one. */
export const asClient: OperationCaller<"client"> = callerFor("client");
/** For the server and admin apps' calls: a per-caller body is the server one. */
export const asServer: OperationCaller<"server"> = callerFor("server");
