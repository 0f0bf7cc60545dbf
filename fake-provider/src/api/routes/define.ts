import { z } from "zod";
import type { AccessType } from "@authsim/sdk/contract";
import type { Auth } from "../auth/parse-auth.ts";
import type { OpContext } from "../../domain/ops/context.ts";

/**
 * How an area declares its routes: per contract operation id, the schemas of its parts and a handler that calls one
 * op. The app (app.ts) does authentication, parsing, the transaction and serialisation around it.
 */
export interface RouteInput<Q, B, P> {
  query: Q;
  body: B;
  params: P;
  /** Null only for operations with access "none". */
  auth: Auth | null;
  ctx: OpContext;
  request: Request;
}

/** A handler answers a JSON body (status 200), `{ status, body }`, or a ready Response. */
export type RouteResult = Response | { status: number; body: unknown } | { json: unknown };

export interface RouteSpec<Q extends z.ZodType, B extends z.ZodType, P extends z.ZodType> {
  query?: Q;
  /** A schema, or one chosen by who is calling (e.g. PATCH /users/me takes more fields from a server). */
  body?: B | ((auth: Auth | null) => B);
  params?: P;
  /** Narrows the operation's access (e.g. a "client" operation that only server/admin may call with some input). */
  access?: readonly AccessType[];
  handler: (input: RouteInput<z.output<Q>, z.output<B>, z.output<P>>) => Promise<RouteResult> | RouteResult;
}

export type AnyRouteSpec = RouteSpec<z.ZodType, z.ZodType, z.ZodType>;

export function route<Q extends z.ZodType = z.ZodObject<Record<string, never>>, B extends z.ZodType = z.ZodType<undefined>, P extends z.ZodType = z.ZodType<Record<string, string>>>(
  spec: RouteSpec<Q, B, P>,
): AnyRouteSpec {
  return spec as unknown as AnyRouteSpec;
}

/** Default query: none allowed (protocol.md §1: unknown query keys are a SCHEMA_ERROR). */
export const noQuery = z.strictObject({});
/** Default body: none, or `{}` (the published SDK sends `{}` on some DELETEs). */
export const noBody = z.union([z.undefined(), z.strictObject({})]);

export const ok = (body: unknown): RouteResult => ({ json: body });
export const created = (body: unknown): RouteResult => ({ status: 201, body });
export const success = (): RouteResult => ({ json: { success: true } });
