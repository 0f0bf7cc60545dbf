import { z } from "zod";
import { listEnvelope } from "./common.ts";
import { defineOperations, json, redirect, success, text, type OperationDefinition } from "../define-operations.ts";
import { internalApiKeyCreate } from "./internal-api-keys.ts";
import { adminOAuthProviderConfig } from "./projects.ts";

/**
 * The integrations that provision Stack projects for another service: Neon's (`/integrations/neon/*`) and the generic
 * one (`/integrations/custom/*`). Both families share one set of routes (provision, transfer, trusted domains, an OAuth
 * identity provider that hands out a project's admin key); Neon's adds a few of its own (neon-integration.ts). The
 * integration authenticates with HTTP Basic: a client id and secret the real service's environment lists
 * (STACK_INTEGRATION_CLIENTS_CONFIG); the emulator accepts the real development environment's clients
 * (domain/ops/integrations/integration-clients.ts).
 */
export const integrationFamilies = ["neon", "custom"] as const;
export type IntegrationFamily = (typeof integrationFamilies)[number];

/** `Basic <base64 of id:secret>` split as the real service's decoder does (null when it is not that shape). */
export function decodeBasicAuthorization(value: string): [string, string] | null {
  const [type, encoded, ...rest] = value.split(" ");
  if (rest.length > 0 || !encoded || type !== "Basic") return null;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) return null;
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  const [id = "", ...secret] = new TextDecoder().decode(bytes).split(":");
  return [id, secret.join(":")];
}

/** The request headers an integration's own routes require: its Basic credentials (checked against the clients by the op). */
export const integrationClientHeaders = z.looseObject({
  authorization: z.string().refine((value) => decodeBasicAuthorization(value) !== null, {
    message: 'Authorization header must be in the format "Basic <base64>"',
    params: { bare: true },
  }),
});

export const integrationProvisionBody = z.strictObject({ display_name: z.string().min(1).max(256) });
export const neonConnectionStrings = z.array(z.strictObject({ branch_id: z.string(), connection_string: z.string() }));
export const neonProvisionBody = integrationProvisionBody.extend({
  connection_strings: neonConnectionStrings.optional(),
});
export const provisionedProject = z.object({ project_id: z.string(), super_secret_admin_key: z.string() });
export const integrationProjectQuery = z.strictObject({ project_id: z.string() });
export const integrationProjectBody = z.strictObject({ project_id: z.string() });
export const transferReadiness = z.object({ message: z.string() });
export const transferConfirmation = z.object({ confirmation_url: z.string().url() });
export const transferCodeBody = z.strictObject({ code: z.string() });
export const transferredProject = z.object({ project_id: z.string() });
export const transferCodeCheck = z.object({ is_code_valid: z.literal(true) });

/** A trusted domain as an integration adds it: an http(s) origin (wildcards allowed), nothing after the host and port. */
export const integrationDomainCreate = z.strictObject({
  domain: z
    .string()
    .max(300)
    .refine(
      isProtocolAndDomain,
      "must be a protocol and domain (with optional port) without any path, query parameters, or hash",
    )
    .refine((d) => /^https?:\/\//.test(d), {
      message: "URL must start with http:// or https://",
      params: { bare: true },
    }),
});
function isProtocolAndDomain(value: string): boolean {
  try {
    const url = new URL(value.replace(/\*/g, "wildcard-placeholder"));
    return url.hostname !== "" && url.pathname === "/" && url.search === "" && url.hash === "";
  } catch {
    return false;
  }
}
export const integrationDomain = z.object({ domain: z.string() });
export const integrationDomainList = listEnvelope(integrationDomain);
export const integrationDomainParams = z.strictObject({ domain: z.string() });

export const internalConfirmBody = z.strictObject({
  interaction_uid: z.string(),
  project_id: z.string(),
  external_project_name: z.string().optional(),
});
export const internalConfirmResponse = z.object({ authorization_code: z.string() });

export const integrationAuthorizeQuery = z.strictObject({
  client_id: z.string(),
  redirect_uri: z.string(),
  state: z.string(),
  code_challenge: z.string(),
  code_challenge_method: z.enum(["S256"]),
  response_type: z.enum(["code"]),
});
export const integrationTokenBody = z.strictObject({
  grant_type: z.enum(["authorization_code"]),
  code: z.string(),
  code_verifier: z.string(),
  redirect_uri: z.string(),
});
/** What the integration gets for its code: the project's admin key, as an "api_key" token. */
export const integrationTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal("api_key"),
  project_id: z.string(),
});
export const idpParams = z.object({ route: z.string() });
/** The identity provider's own requests: any query and any body (forms, as OpenID Connect sends them). */
export const idpAnything = z.unknown();

const idpAnswers = [
  json(
    z.unknown(),
    200,
    "The provider's JSON: discovery, keys, a token, the account (and a continue page on GET …/done)",
  ),
  redirect(303, "Authorize: to the interaction; its end: back to authorize; resumed: to the client with a code."),
  redirect(307, "The interaction: to the dashboard's consent page."),
];

/** Prefixes each id with the family: `provisionProject` → `neonProvisionProject`. */
type Prefixed<F extends string, T> = { [K in keyof T & string as `${F}${Capitalize<K>}`]: T[K] };
function prefixed<const F extends string, const T extends Record<string, OperationDefinition>>(
  family: F,
  defs: T,
): Prefixed<F, T> {
  return Object.fromEntries(
    Object.entries(defs).map(([id, def]) => [`${family}${id[0]!.toUpperCase()}${id.slice(1)}`, def]),
  ) as Prefixed<F, T>;
}

/** The routes both families serve, at /integrations/<family>. */
function familyDefinitions<const F extends IntegrationFamily>(family: F) {
  const base = `/integrations/${family}` as const;
  const idp = (method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE") =>
    ({
      method,
      path: `${base}/oauth/idp/:route{.+}`,
      access: "none",
      params: idpParams,
      query: z.looseObject({}),
      ...(method === "GET" ? {} : { body: idpAnything }),
      errors: [],
      responses: idpAnswers,
    }) as const;
  const transferStart = {
    method: "POST",
    path: `${base}/projects/transfer`,
    access: "none",
    headers: integrationClientHeaders,
    body: integrationProjectBody,
    errors: ["SCHEMA_ERROR"],
    responses: [json(transferConfirmation)],
  } as const;
  return prefixed(family, {
    provisionProject: {
      method: "POST",
      path: `${base}/projects/provision`,
      access: "none",
      headers: integrationClientHeaders,
      body: family === "neon" ? neonProvisionBody : integrationProvisionBody,
      errors: ["SCHEMA_ERROR"],
      responses: [json(provisionedProject)],
    },
    transferReadiness: {
      method: "GET",
      path: `${base}/projects/transfer`,
      access: "none",
      headers: integrationClientHeaders,
      query: integrationProjectQuery,
      errors: ["SCHEMA_ERROR"],
      responses: [json(transferReadiness)],
    },
    transferStart,
    // Upstream's /initiate re-exports the POST of /projects/transfer.
    transferInitiate: { ...transferStart, path: `${base}/projects/transfer/initiate` },
    transferConfirm: {
      method: "POST",
      path: `${base}/projects/transfer/confirm`,
      access: "client",
      body: transferCodeBody,
      errors: [
        "USER_AUTHENTICATION_REQUIRED",
        "VERIFICATION_CODE_NOT_FOUND",
        "VERIFICATION_CODE_EXPIRED",
        "VERIFICATION_CODE_ALREADY_USED",
      ],
      responses: [json(transferredProject)],
    },
    transferConfirmCheck: {
      method: "POST",
      path: `${base}/projects/transfer/confirm/check`,
      access: "client",
      body: transferCodeBody,
      errors: ["VERIFICATION_CODE_NOT_FOUND", "VERIFICATION_CODE_EXPIRED", "VERIFICATION_CODE_ALREADY_USED"],
      responses: [json(transferCodeCheck)],
    },
    listDomains: {
      method: "GET",
      path: `${base}/domains`,
      access: "admin",
      errors: [],
      responses: [json(integrationDomainList)],
    },
    createDomain: {
      method: "POST",
      path: `${base}/domains`,
      access: "admin",
      body: integrationDomainCreate,
      errors: [],
      responses: [json(integrationDomain, 201, "Created")],
    },
    deleteDomain: {
      method: "DELETE",
      path: `${base}/domains/:domain`,
      access: "admin",
      params: integrationDomainParams,
      errors: [],
      responses: [success],
    },
    internalConfirm: {
      method: "POST",
      path: `${base}/internal/confirm`,
      access: "server",
      body: internalConfirmBody,
      errors: ["SCHEMA_ERROR", "PROJECT_NOT_FOUND"],
      responses: [json(internalConfirmResponse)],
    },
    oauthEndpoints: {
      method: "GET",
      path: `${base}/oauth`,
      access: "none",
      errors: [],
      responses: [text("Plain text: the authorization and token endpoints' URLs.")],
    },
    oauthAuthorize: {
      method: "GET",
      path: `${base}/oauth/authorize`,
      access: "none",
      query: integrationAuthorizeQuery,
      errors: [],
      responses: [redirect(307, "To the identity provider's auth endpoint with the same query and scope=openid.")],
    },
    idpGet: idp("GET"),
    idpPost: idp("POST"),
    idpPut: idp("PUT"),
    idpPatch: idp("PATCH"),
    idpDelete: idp("DELETE"),
    oauthToken: {
      method: "POST",
      path: `${base}/oauth/token`,
      access: "none",
      headers: integrationClientHeaders,
      body: integrationTokenBody,
      errors: ["SCHEMA_ERROR"],
      responses: [json(integrationTokenResponse)],
    },
  });
}

/** The operations both families serve (the family's name before each id: neonProvisionProject, customProvisionProject …). */
export const integrationsOperations = defineOperations("integrations", {
  ...familyDefinitions("neon"),
  ...familyDefinitions("custom"),
});

/** Neon's own API-key create body (its description has no length bound, unlike /internal/api-keys'). */
export const neonApiKeyCreate = internalApiKeyCreate.extend({ description: z.string() });
/** One OAuth provider as Neon reads and writes it: by provider id (`google`), shared or with the app's own client. */
export const neonOAuthProvider = adminOAuthProviderConfig.omit({ provider_config_id: true, apple_bundle_ids: true });
const neonOAuthProviderFields = {
  type: z.enum(["shared", "standard"]).optional(),
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  facebook_config_id: z.string().optional(),
  microsoft_tenant_id: z.string().optional(),
};
/** A standard provider names its own client (present and not empty), as the real schema words it. */
function standardClientRequired(
  p: { type?: string | undefined; client_id?: string | undefined; client_secret?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (p.type !== "standard") return;
  for (const key of ["client_id", "client_secret"] as const) {
    if (p[key] === undefined) ctx.addIssue({ code: "custom", path: [key], message: "must be defined" });
    else if (p[key] === "") ctx.addIssue({ code: "custom", path: [key], message: "must not be empty" });
  }
}
export const neonOAuthProviderUpdate = z.strictObject(neonOAuthProviderFields).superRefine(standardClientRequired);
export const neonOAuthProviderCreate = z
  .strictObject({ id: z.string(), ...neonOAuthProviderFields })
  .superRefine(standardClientRequired);
export const neonOAuthProviderList = listEnvelope(neonOAuthProvider);
export const neonOAuthProviderParams = z.strictObject({ oauth_provider_id: z.string() });
export const neonConnectionBody = z.strictObject({ connection_strings: neonConnectionStrings });
export const neonWebhookBody = z.strictObject({ url: z.string().url(), description: z.string().optional() });
export const neonWebhookResponse = z.object({ secret: z.string() });
