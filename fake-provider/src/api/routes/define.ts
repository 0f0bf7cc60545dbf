import type {
  AccessOf,
  AccessType,
  OperationId,
  RequestBody,
  RequestParams,
  RequestQuery,
  ResponseInput,
} from "@authsim/sdk/contract";
import type { UnsignedAccessToken } from "../../domain/auth/tokens.ts";
import type { OpContext } from "../../domain/ops/context.ts";
import type { Step } from "../../domain/ops/outside-lock.ts";
import type { Auth } from "../auth/parse-auth.ts";

/**
 * How an area declares its routes: per contract operation id, a handler that calls one op. The operation's contract
 * definition (sdk/src/contract/areas/<area>.ts) holds the schemas of its parts; the mount (mount.ts) does authentication,
 * parsing against them, the transaction and serialisation around the handler.
 */
export type RouteInput<Id extends OperationId> = RouteParts<
  RequestQuery<Id>,
  RequestBody<Id>,
  RequestParams<Id>,
  AuthFor<Id>
>;

export interface RouteParts<Query, Body, Params, Caller> {
  query: Query;
  body: Body;
  params: Params;
  /** Null only for operations with access "none": the mount has refused every other caller without one. */
  auth: Caller;
  ctx: OpContext;
  request: Request;
}

/** The caller an operation's handler gets: anyone, or nobody, for access "none"; else an authenticated project. */
export type AuthFor<Id extends OperationId> = Id extends OperationId
  ? AccessOf<Id> extends "none"
    ? Auth | null
    : Auth
  : never;

/**
 * A handler answers a JSON body (status 200), `{ status, body, headers? }` (headers beside the API's), or a ready
 * Response. The body is typed by the operation's answer schema (its `responses`), so a wrong answer does not compile;
 * its `access_token` may be an UnsignedAccessToken: the mount signs it once the transaction has committed (a ready
 * Response is sent as it is, so it cannot hold one).
 */
export type RouteResult<Answer = unknown> =
  Response | { status: number; body: Answer; headers?: Record<string, string> } | { json: Answer };

/** An answer as a handler may give it: an access token in it may still be unsigned (distributes over a union of answers). */
export type Signable<T> = T extends { access_token: string }
  ? Omit<T, "access_token"> & { access_token: string | UnsignedAccessToken }
  : T;

/**
 * The answer schema's input type as a handler is held to it: read only (a handler's answer is never written to, so a
 * readonly array or tuple it builds is fine), and without the index signatures of loose objects (extra keys pass
 * through, so a library's interface such as @simplewebauthn's options stands where the schema has a loose object).
 */
export type AnswerShape<T> = T extends readonly (infer U)[]
  ? readonly AnswerShape<U>[]
  : T extends object
    ? { readonly [K in keyof T as string extends K ? never : number extends K ? never : K]: AnswerShape<T[K]> }
    : T;

/** What the operation with this id answers, as its handler gives it. */
export type AnswerOf<Id extends OperationId> = Signable<AnswerShape<ResponseInput<Id>>>;

export interface RouteSpec<Query, Body, Params, Caller, Answer = unknown> {
  /** Narrows the operation's access (e.g. a "client" operation that only server/admin may call with some input). */
  access?: readonly AccessType[];
  // A method, and typed by the parts rather than the id, so a route written for a few ids (the factories of
  // api-keys.ts, permissions.ts and oauth.ts) stands in the table's entry for each of them.
  // A Step when the operation has work to do outside the store's lock (domain/ops/outside-lock.ts): rendering an email,
  // evaluating an analytics query.
  handler(
    input: RouteParts<Query, Body, Params, Caller>,
  ): Step<RouteResult<Answer>> | Promise<Step<RouteResult<Answer>>>;
}

/** The route of the operation with this id (or of any of these ids). */
export type RouteFor<Id extends OperationId> = RouteSpec<
  RequestQuery<Id>,
  RequestBody<Id>,
  RequestParams<Id>,
  AuthFor<Id>,
  AnswerOf<Id>
>;

/** The routes of an area, by operation id: each handler's parts and answer are typed by its operation's contract schemas. */
export type RouteTable = { readonly [Id in OperationId]?: RouteFor<Id> };

export const ok = <const Answer>(body: Answer): { json: Answer } => ({ json: body });
export const created = <const Answer>(body: Answer): { status: number; body: Answer } => ({ status: 201, body });
export const success = (): { json: { success: true } } => ({ json: { success: true } });
