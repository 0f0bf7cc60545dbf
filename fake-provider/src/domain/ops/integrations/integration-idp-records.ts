import type { IntegrationFamily } from "@authsim/sdk/contract";
import type { IdpRecord } from "../../store/integration-records.ts";
import type { OpContext } from "../context.ts";

/** The integrations' identity provider's wire shapes, lifetimes and records (integration-idp.ts tells the flow). */

export const INTERACTION_TTL_MILLIS = 60 * 60 * 1000;
export const CODE_TTL_MILLIS = 60 * 1000;
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;

/** A cookie the answer sets (`expires` in the past deletes it). */
export interface IdpCookie {
  name: string;
  value: string;
  path: string;
  expiresAtMillis: number;
}

/** What the provider answers: a redirect, a JSON body, the interaction's continue page, or nothing. */
export type IdpAnswer =
  | { kind: "redirect"; status: 303 | 307; location: string; cookies: IdpCookie[]; emptyBody?: true }
  | { kind: "json"; status: number; body: Record<string, unknown>; headers?: Record<string, string> }
  | { kind: "continue-page" };

export interface IdpRequest {
  method: string;
  /** The path after …/oauth/idp/, e.g. `auth` or `interaction/<uid>/done`. */
  route: string;
  query: Record<string, string>;
  form: Record<string, string>;
  cookies: Record<string, string>;
  authorization: string | undefined;
}

export const idpBasePath = (family: IntegrationFamily) => `/api/v1/integrations/${family}/oauth/idp`;
export const idpBase = (ctx: OpContext, family: IntegrationFamily) =>
  `${ctx.settings.apiBaseUrl}${idpBasePath(family)}`;

export const key = (kind: IdpRecord["kind"], id: string) => `${kind}\u0000${id}`;
export function find<K extends IdpRecord["kind"]>(
  ctx: OpContext,
  family: IntegrationFamily,
  kind: K,
  id: string,
): Extract<IdpRecord, { kind: K }> | undefined {
  const record = ctx.tables.integrationIdp.get(key(kind, id));
  if (!record || record.family !== family) return undefined;
  if ("expiresAtMillis" in record && record.expiresAtMillis <= ctx.now) return undefined;
  return record as Extract<IdpRecord, { kind: K }>;
}
export const save = (ctx: OpContext, record: IdpRecord) =>
  ctx.tables.integrationIdp.set(key(record.kind, record.id), record);

/** oidc-provider's error answer: 400 JSON (its renderError as upstream configured it), with the issuer and state. */
export function oidcError(
  ctx: OpContext,
  family: IntegrationFamily,
  error: string,
  description: string,
  state?: string | null,
) {
  return {
    kind: "json",
    status: 400,
    body: { error, error_description: description, iss: idpBase(ctx, family), ...(state ? { state } : {}) },
  } as const satisfies IdpAnswer;
}
