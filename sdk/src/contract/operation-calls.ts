import type { z } from "zod";
import { fillPathParams } from "./path-params.ts";
import { operationsById, type OperationDefinitionOf, type OperationId } from "./operations.ts";
import type { RequestBodyInput } from "./requests.ts";
import type { JsonResponse } from "./response-kinds.ts";

/**
 * What a call of an operation sends and gets back, from its definition: the parts (params, query, body) typed by its
 * schemas, its path with the params filled in, and the schema its JSON answer is parsed with for the caller. The SDK's
 * transport (transport/operation-call.ts) and the dev server's pages (the dashboard's and the hosted pages' API calls)
 * build their requests from these, so no call names a path or an answer schema of its own.
 */

type RequestOf<Id extends OperationId> = OperationDefinitionOf<Id>;

/** A query value as a call gives it; sent as `String(value)`, null and undefined left out. */
export type QueryValue = string | number | boolean | null | undefined;

/**
 * Which of a per-caller body (`byCaller`) and per-caller answer (`view`) a call is typed against: "client" for the
 * client app's calls, "server" for server and admin calls (an admin is held to the server body and gets the server view).
 */
export type BodyCaller = "client" | "server";

type ParamsPart<Id extends OperationId> =
  RequestOf<Id> extends { readonly params: infer P extends z.ZodType }
    ? { readonly params: { readonly [K in keyof z.input<P>]: z.input<P>[K] & string } }
    : { readonly params?: Readonly<Record<string, string>> };

/** Query keys are the contract's; values are serialised as the transport serialises them (`String(value)`, null and undefined left out). */
type QueryPart<Id extends OperationId> =
  RequestOf<Id> extends { readonly query: infer Q extends z.ZodType }
    ? { readonly query?: { readonly [K in keyof z.input<Q>]?: QueryValue } }
    : { readonly query?: never };

/** Without a body schema the operation takes none, or `{}` (the published SDK sends `{}` on some DELETEs and POSTs). */
type BodyPart<Id extends OperationId, Caller extends BodyCaller> =
  RequestOf<Id> extends { readonly body: unknown }
    ? undefined extends RequestBodyInput<Id, Caller>
      ? { readonly body?: RequestBodyInput<Id, Caller> }
      : { readonly body: RequestBodyInput<Id, Caller> }
    : { readonly body?: Readonly<Record<string, never>> };

/** The parts a call of the operation sends: its path's params, its query and its body, typed by the contract. */
export type OperationCallParts<Id extends OperationId, Caller extends BodyCaller> = ParamsPart<Id> &
  QueryPart<Id> &
  BodyPart<Id, Caller>;

// The schema of an answer for this caller: its view where the answer depends on who calls (`view` in the contract).
type SchemaFor<R, Caller extends BodyCaller> = R extends {
  readonly views: { readonly client: infer C; readonly server: infer S };
}
  ? Caller extends "client"
    ? C
    : S
  : R extends JsonResponse<infer S>
    ? S
    : never;

/** The schema the operation's JSON answer is parsed with, for this caller (its first JSON answer: see `answerSchema`). */
export type AnswerSchema<Id extends OperationId, Caller extends BodyCaller> = SchemaFor<
  OperationDefinitionOf<Id>["responses"][number],
  Caller
>;

/**
 * The operation's JSON answer schema for a caller. Operations with two JSON answers differ only in status (cliPoll's
 * 200 and 201 share one schema) or answer the other one outside the API's calls (the token endpoint's RFC 6749 error
 * through `sendBare`), so the first is the one.
 */
export function answerSchema(id: OperationId, caller: BodyCaller): z.ZodType {
  const answer = operationsById.get(id)?.responses.find((r): r is JsonResponse => r.kind === "json");
  if (!answer) throw new Error(`${id} answers no JSON`);
  return answer.views ? answer.views[caller] : answer.schema;
}

/** The operation's path (relative to /api/v1) with each `:name` replaced by its URL-encoded value. */
export function operationPath(id: OperationId, params: Readonly<Record<string, string>> = {}): string {
  const op = operationsById.get(id);
  if (!op) throw new Error(`Not a contract operation: ${id}`);
  return fillPathParams(op.path, (name) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${id}: no value for the path parameter :${name}`);
    return encodeURIComponent(value);
  });
}

/**
 * The operation's path with its params filled in and its query after it (`String(value)`, null and undefined left
 * out), relative to /api/v1: for the dev server's pages, which call the API with fetch rather than the SDK's transport.
 */
export function operationUrl(
  id: OperationId,
  parts: {
    readonly params?: Readonly<Record<string, string>>;
    readonly query?: Readonly<Record<string, QueryValue>>;
  } = {},
): string {
  const query = Object.entries(parts.query ?? {}).flatMap(([key, value]): [string, string][] =>
    value === null || value === undefined ? [] : [[key, String(value)]],
  );
  const search = new URLSearchParams(query).toString();
  return operationPath(id, parts.params) + (search ? `?${search}` : "");
}
