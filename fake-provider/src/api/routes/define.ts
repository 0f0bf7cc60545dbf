import type { AccessOf, AccessType, OperationId, RequestBody, RequestParams, RequestQuery } from "@authsim/sdk/contract";
import type { Auth } from "../auth/parse-auth.ts";
import type { OpContext } from "../../domain/ops/context.ts";

/**
 * How an area declares its routes: per contract operation id, a handler that calls one op. The operation's contract
 * definition (sdk/src/contract/areas/<area>.ts) holds the schemas of its parts; the mount (mount.ts) does authentication,
 * parsing against them, the transaction and serialisation around the handler.
 */
export type RouteInput<Id extends OperationId> = RouteParts<RequestQuery<Id>, RequestBody<Id>, RequestParams<Id>, AuthFor<Id>>;

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
export type AuthFor<Id extends OperationId> = Id extends OperationId ? (AccessOf<Id> extends "none" ? Auth | null : Auth) : never;

/**
 * A handler answers a JSON body (status 200), `{ status, body, headers? }` (headers beside the API's), or a ready
 * Response. A JSON answer's `access_token` may be an UnsignedAccessToken: the mount signs it once the transaction has
 * committed (a ready Response is sent as it is, so it cannot hold one).
 */
export type RouteResult = Response | { status: number; body: unknown; headers?: Record<string, string> } | { json: unknown };

export interface RouteSpec<Query, Body, Params, Caller> {
  /** Narrows the operation's access (e.g. a "client" operation that only server/admin may call with some input). */
  access?: readonly AccessType[];
  // A method, and typed by the parts rather than the id, so a route written for a few ids (the factories of
  // api-keys.ts, permissions.ts and oauth.ts) stands in the table's entry for each of them.
  handler(input: RouteParts<Query, Body, Params, Caller>): Promise<RouteResult> | RouteResult;
}

/** The route of the operation with this id (or of any of these ids). */
export type RouteFor<Id extends OperationId> = RouteSpec<RequestQuery<Id>, RequestBody<Id>, RequestParams<Id>, AuthFor<Id>>;

/** The routes of an area, by operation id: each handler's parts are typed by its operation's contract schemas. */
export type RouteTable = { readonly [Id in OperationId]?: RouteSpec<RequestQuery<Id>, RequestBody<Id>, RequestParams<Id>, AuthFor<Id>> };

export const ok = (body: unknown): RouteResult => ({ json: body });
export const created = (body: unknown): RouteResult => ({ status: 201, body });
export const success = (): RouteResult => ({ json: { success: true } });
