import { z } from "zod";
import { queryBoolean } from "./common.ts";
import { defineOperations, json, text } from "../define-operations.ts";

/**
 * Root and meta endpoints (protocol.md §6.1). Only the version check has a JSON shape worth describing: the others
 * answer plain text (root, check-feature-support) or a JWK set.
 */

/**
 * POST /check-version: the dashboard and CLI send their package version. Upstream's route (apps/backend
 * …/check-version/route.ts in A26) is POST with a JSON body, not the GET protocol.md §6.1 lists, and marks it hidden.
 */
export const checkVersionBody = z.strictObject({ clientVersion: z.string() });
export type CheckVersionBody = z.infer<typeof checkVersionBody>;

/** Up to date, or outdated with a message and whether the gap is severe (security fixes missing). */
export const checkVersionResponse = z.union([
  z.strictObject({ upToDate: z.literal(true) }),
  z.strictObject({ upToDate: z.literal(false), error: z.string(), severe: z.boolean() }),
]);
export type CheckVersionResponse = z.infer<typeof checkVersionResponse>;

/** GET /internal/backend-urls: the API base URLs a client may use. */
export const backendUrlsResponse = z.object({ urls: z.array(z.string()) });

/** GET /projects/{project_id}/.well-known/jwks.json: the project's public signing keys (RFC 7517), fields as JWK. */
/** Each key a JWK (RFC 7517: `kty` always; the rest by key type, passed through). */
export const jwksResponse = z.object({ keys: z.array(z.looseObject({ kty: z.string() })) });

/** POST /check-feature-support: the SDK names the feature it found missing; the answer is plain text. */
export const checkFeatureSupportBody = z
  .looseObject({ feature_name: z.string().optional(), name: z.string().optional() })
  .optional();

/** GET /projects/:project_id/.well-known/jwks.json: the project is looked up by the route (a plain-text 404). */
export const jwksParams = z.object({ project_id: z.string() });
export const jwksQuery = z.strictObject({
  include_restricted: queryBoolean.optional(),
  include_anonymous: queryBoolean.optional(),
});

/** The operations of this area: what each accepts and answers, who may call it, the known errors its own code may answer. */
export const metaOperations = defineOperations("meta", {
  root: {
    method: "GET",
    path: "/",
    access: "none",
    errors: [],
    responses: [
      text(
        "Plain text: a welcome line and who the request authenticated as (Authentication: None, or type, project, user).",
      ),
    ],
  },
  backendUrls: {
    method: "GET",
    path: "/internal/backend-urls",
    access: "none",
    errors: [],
    responses: [json(backendUrlsResponse)],
  },
  checkFeatureSupport: {
    method: "POST",
    path: "/check-feature-support",
    access: "none",
    body: checkFeatureSupportBody,
    errors: [],
    responses: [text("Plain text: the named feature is not supported.")],
  },
  checkVersion: {
    method: "POST",
    path: "/check-version",
    access: "none",
    body: checkVersionBody,
    errors: [],
    responses: [json(checkVersionResponse)],
  },
  jwks: {
    method: "GET",
    path: "/projects/:project_id/.well-known/jwks.json",
    access: "none",
    params: jwksParams,
    query: jwksQuery,
    errors: [],
    responses: [json(jwksResponse, 200, "The project's JSON Web Key Set")],
  },
});
