import type { z } from "zod";
import type { OperationDefinitionOf, OperationId } from "./operations.ts";
import type { CallerBodies, noBody, noQuery } from "./request-kinds.ts";

/**
 * The types of an operation's request parts, by operation id, as its definition (areas/<area>.ts) names their schemas:
 * what a route's handler gets once the mount has parsed them, and what an SDK call sends.
 */
export type { CallerBodies, OperationRequest } from "./request-kinds.ts";
export { anyParams, bodyForCaller, byCaller, noBody, noQuery } from "./request-kinds.ts";

type RequestOf<Id extends OperationId> = OperationDefinitionOf<Id>;

// Each helper takes the entry as a naked type parameter, so for a union of ids it gives the union of their parts.
type ParamsOf<R> = R extends { readonly params: infer P extends z.ZodType } ? z.output<P> : Record<string, string>;
type QueryOf<R> = R extends { readonly query: infer Q extends z.ZodType } ? z.output<Q> : z.output<typeof noQuery>;
type BodyOf<R> = R extends { readonly body: CallerBodies<infer C, infer S> }
  ? z.output<C> | z.output<S>
  : R extends { readonly body: infer B extends z.ZodType }
    ? z.output<B>
    : z.output<typeof noBody>;
type BodyInputOf<R, Caller extends "client" | "server"> = R extends { readonly body: CallerBodies<infer C, infer S> }
  ? z.input<Caller extends "client" ? C : S>
  : R extends { readonly body: infer B extends z.ZodType }
    ? z.input<B>
    : z.input<typeof noBody>;

/** The parsed `:params` of an operation's path. */
export type RequestParams<Id extends OperationId> = ParamsOf<RequestOf<Id>>;
/** The parsed query of an operation. */
export type RequestQuery<Id extends OperationId> = QueryOf<RequestOf<Id>>;
/** The parsed body of an operation (either caller's, for a body that depends on who calls). */
export type RequestBody<Id extends OperationId> = BodyOf<RequestOf<Id>>;
/** The body a caller with `Caller` access sends (before defaults and transforms). */
export type RequestBodyInput<Id extends OperationId, Caller extends "client" | "server" = "server"> = BodyInputOf<
  RequestOf<Id>,
  Caller
>;
