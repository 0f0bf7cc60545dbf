import type { z } from "zod";
import { successResponse } from "./areas/common.ts";
import type { OperationRequest } from "./request-kinds.ts";
export { byCaller } from "./request-kinds.ts";
import type { JsonResponse, OperationResponse, RedirectResponse, TextResponse } from "./response-kinds.ts";

/**
 * How an area file (areas/<area>.ts) defines its operations, once each: method, path, access, what it accepts
 * (params, query, body), what it answers, and the known errors its own code may answer. operations.ts joins the areas'
 * definitions into the operation list; the SDK's calls, the fake provider's routes, the OpenAPI document and the
 * fuzzer all read them from there. Each definition keeps its literal types (the `const` type parameter), so an
 * operation's request and answer types are inferred from the schemas named here.
 */

/**
 * Who may call an operation: "none" needs no project authentication; "client" means client, server or admin ("C+");
 * "server" means server or admin; "admin" admin only.
 */
export type OperationAccess = "none" | "client" | "server" | "admin";
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface OperationDefinition extends OperationRequest {
  readonly method: HttpMethod;
  /** Relative to /api/v1, with `:name` parameters. */
  readonly path: string;
  readonly access: OperationAccess;
  /** What it answers unless it refuses with a known error, one entry per status. */
  readonly responses: readonly OperationResponse[];
}

/** An area's definitions, each with its id and the area (the file) that holds it. */
export type DefinedOperations<Area extends string, Defs> = {
  readonly [Id in keyof Defs]: Defs[Id] & { readonly id: Id; readonly area: Area };
};

export function defineOperations<
  const Area extends string,
  const Defs extends Readonly<Record<string, OperationDefinition>>,
>(area: Area, definitions: Defs): DefinedOperations<Area, Defs> {
  return Object.fromEntries(
    Object.entries(definitions).map(([id, definition]) => [id, { ...definition, id, area }]),
  ) as DefinedOperations<Area, Defs>;
}

// The kinds of answer, as the definitions write them. Statuses are the wire's: 201 for the CRUD creates, 200 for
// upstream's custom routes, 3xx for the OAuth redirects.
export const json = <S extends z.ZodType>(
  schema: S,
  status: JsonResponse["status"] = 200,
  description = "Success",
): JsonResponse<S> => ({ kind: "json", status, schema, description });
export const created = <S extends z.ZodType>(schema: S): JsonResponse<S> => json(schema, 201, "Created");
/** The two views of an answer chosen by who calls, with their types (an SDK call parses with its caller's). */
export interface ViewResponse<S extends z.ZodUnion<readonly [z.ZodType, z.ZodType]>> extends JsonResponse<S> {
  readonly views: { readonly client: S["options"][0]; readonly server: S["options"][1] };
}

/** For an answer chosen by who calls (areas/common.ts `byAccess`): the client view, or the server one. */
export const view = <S extends z.ZodUnion<readonly [z.ZodType, z.ZodType]>>(
  schema: S,
  status: JsonResponse["status"] = 200,
): ViewResponse<S> => ({
  ...json(schema, status, status === 201 ? "Created" : "Success"),
  views: { client: schema.options[0], server: schema.options[1] },
});
export const success = json(successResponse);
export const text = (description: string): TextResponse => ({ kind: "text", status: 200, description });
export const redirect = (status: RedirectResponse["status"], description: string): RedirectResponse => ({
  kind: "redirect",
  status,
  description,
});
