import type { z } from "zod";
import type { OperationDefinitionOf, OperationId } from "./operations.ts";
import type { JsonResponse } from "./response-kinds.ts";

/**
 * The types of an operation's answers, by operation id, as its definition (areas/<area>.ts) names their schemas: what
 * a route's handler must answer (a wrong answer does not compile) and what an SDK call gets back.
 */
export type { JsonResponse, OperationResponse, RedirectResponse, TextResponse } from "./response-kinds.ts";
export { schemaForCaller } from "./response-kinds.ts";

type JsonSchemasOf<R> = R extends JsonResponse<infer S> ? S : never;
/** The schema of each JSON answer of the operation (a union when it has several: cliPoll's 200 and 201). */
export type ResponseSchema<Id extends OperationId> = JsonSchemasOf<OperationDefinitionOf<Id>["responses"][number]>;
/** The JSON body a route's handler answers, as the answer schema takes it in (before its transforms). */
export type ResponseInput<Id extends OperationId> = z.input<ResponseSchema<Id>>;
/** The JSON body an SDK call gets, once parsed by the answer schema. */
export type ResponseOutput<Id extends OperationId> = z.output<ResponseSchema<Id>>;
