import type { z } from "zod";
import type { AccessType } from "./headers.ts";

/**
 * The kinds of answer an operation gives when it does not refuse. A module of its own below the area files that define
 * operations (define-operations.ts) and operations.ts, which joins them.
 */
export type OperationResponse = JsonResponse | TextResponse | RedirectResponse;

export interface JsonResponse<S extends z.ZodType = z.ZodType> {
  readonly kind: "json";
  /** 400 only for the token endpoint's RFC 6749 error answer, which is not a known error. */
  readonly status: 200 | 201 | 400;
  /** Its type is kept, so a route's answer and an SDK call's result are typed by it. */
  readonly schema: S;
  /** For a view chosen by who calls (areas/common.ts `byAccess`): the one each caller gets. */
  readonly views?: { readonly client: z.ZodType; readonly server: z.ZodType };
  readonly description: string;
}

/** A plain-text answer (the root's welcome, check-feature-support): no schema to hold it to. */
export interface TextResponse {
  readonly kind: "text";
  readonly status: 200;
  readonly description: string;
}

/** A redirect: the `location` header is the answer (the OAuth browser legs). */
export interface RedirectResponse {
  readonly kind: "redirect";
  readonly status: 303 | 307;
  readonly description: string;
}

/** The schema an answer to this caller must match: its own view when the answer depends on who calls. */
export function schemaForCaller(response: JsonResponse, accessType: AccessType | null): z.ZodType {
  if (!response.views) return response.schema;
  return accessType === "client" ? response.views.client : response.views.server;
}
