import { z } from "zod";
import {
  API_PREFIX,
  knownErrorCodes,
  knownErrorSpec,
  fillPathParams,
  operations,
  pathParamNames,
  type Operation,
  type OperationResponse,
} from "@authsim/sdk/contract";
import { requestParts, type RequestParts } from "./request-parts.ts";
import { combine, SCHEMA_REF, SchemaSide, type JsonSchema } from "./schemas.ts";
import { accessDescriptions, securityFor, securitySchemes } from "./security.ts";

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the contract: one operation per entry of operations.ts (method,
 * path, access, responses), request schemas from the routes that parse them, and the
 * known-error answer every operation may give. Built once per process (it depends on code only); `servers` is added
 * per provider, since it names the provider's own URL.
 */
export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
};

export type OpenApiOperation = {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: OpenApiParameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
  "x-authsim-access": Operation["access"];
  "x-authsim-implemented": boolean;
};

export type OpenApiParameter = {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: JsonSchema;
  description?: string;
};

/** `/users/:user_id` → `/users/{user_id}` (OpenAPI path templating). */
// A parameter's pattern (`:path{.+}`, a path that takes the rest of the URL) is the router's business, not OpenAPI's.
export const openApiPath = (path: string) => fillPathParams(path, (name) => `{${name}}`);

const ACRONYMS: Record<string, string> = {
  oauth: "OAuth",
  otp: "OTP",
  mfa: "MFA",
  cli: "CLI",
  api: "API",
  url: "URL",
  ai: "AI",
  jwks: "JWKS",
  svix: "Svix",
};

function summaryOf(id: string): string {
  const words = id
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(" ")
    .map((w) => ACRONYMS[w] ?? w);
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function objectProperties(schema: z.ZodType): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as JsonSchema;
  return {
    properties: (json.properties as Record<string, JsonSchema> | undefined) ?? {},
    required: (json.required as string[] | undefined) ?? [],
  };
}

function parametersOf(operation: Operation, parts: RequestParts | null): OpenApiParameter[] {
  const params = parts?.params ? objectProperties(parts.params).properties : {};
  const pathNames = pathParamNames(operation.path);
  const path = pathNames.map((name): OpenApiParameter => ({
    name,
    in: "path",
    required: true,
    schema: params[name] ?? { type: "string" },
  }));
  if (!parts?.query) return path;
  const query = objectProperties(parts.query);
  return [
    ...path,
    ...Object.entries(query.properties).map(([name, schema]): OpenApiParameter => ({
      name,
      in: "query",
      required: query.required.includes(name),
      schema,
    })),
  ];
}

function responseObject(doc: OperationResponse, schemaRef: JsonSchema | null): unknown {
  if (doc.kind === "text")
    return { description: doc.description, content: { "text/plain": { schema: { type: "string" } } } };
  if (doc.kind === "redirect")
    return {
      description: doc.description,
      headers: { location: { required: true, schema: { type: "string", format: "uri" } } },
    };
  return { description: doc.description, content: { "application/json": { schema: schemaRef } } };
}

function build(): OpenApiDocument {
  const requests = new SchemaSide("input");
  const responses = new SchemaSide("output");
  const paths: OpenApiDocument["paths"] = {};
  for (const operation of operations) {
    const parts = requestParts(operation.id, operation.method);
    const answers: Record<string, unknown> = {};
    // Schemas the contract exports keep their export's name; the ones it builds in place (a list envelope) are named
    // after the operation.
    for (const doc of operation.responses) {
      const ref = doc.kind === "json" ? responses.ref(doc.schema, `${operation.id}Response`) : null;
      answers[String(doc.status)] = responseObject(doc, ref);
    }
    if (!parts) answers["501"] = { $ref: "#/components/responses/NotImplemented" };
    answers.default = { $ref: "#/components/responses/KnownError" };
    const body = parts?.body;
    const path = openApiPath(operation.path);
    (paths[path] ??= {})[operation.method.toLowerCase()] = {
      operationId: operation.id,
      summary: summaryOf(operation.id),
      description: `${operation.method} ${API_PREFIX}${operation.path === "/" ? "" : operation.path}. ${accessDescriptions[operation.access]}${parts ? "" : " Not implemented by authsim yet: answers 501."}`,
      tags: [operation.area],
      security: securityFor(operation.access),
      parameters: parametersOf(operation, parts),
      ...(body
        ? {
            requestBody: {
              required: body.required,
              content: {
                [operation.request.form ? "application/x-www-form-urlencoded" : "application/json"]: {
                  schema: requests.ref(body.schema, `${operation.id}Body`, body.origin),
                },
              },
            },
          }
        : {}),
      responses: answers,
      "x-authsim-access": operation.access,
      "x-authsim-implemented": parts !== null,
    };
  }
  const components = combine(requests, responses);
  for (const byMethod of Object.values(paths))
    for (const op of Object.values(byMethod)) op.responses = components.outputRefs(op.responses);
  return {
    openapi: "3.1.0",
    info: {
      title: "authsim — the Stack Auth /api/v1 as the emulator serves it",
      version: "v1",
      description:
        "Generated from authsim's contract (sdk/src/contract): every operation, who may call it, and the schemas the emulator parses requests with and answers in. A refused request answers a known error: its code in the body and in the x-stack-known-error header, with the status the catalogue fixes for that code.",
    },
    servers: [],
    tags: [...new Set(operations.map((o) => o.area))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ...components.schemas, ...errorSchemas() },
      responses: commonResponses(),
      securitySchemes: securitySchemes(),
    },
  };
}

function errorSchemas(): Record<string, JsonSchema> {
  const concrete = knownErrorCodes.filter((code) => !knownErrorSpec(code).abstract);
  return {
    KnownErrorCode: {
      type: "string",
      enum: concrete,
      description: "The known-error catalogue's codes (protocol.md §3.2).",
    },
    KnownError: {
      type: "object",
      properties: {
        code: { $ref: `${SCHEMA_REF}KnownErrorCode` },
        error: { type: "string" },
        details: { type: "object" },
      },
      required: ["code", "error"],
    },
    NotImplemented: {
      type: "object",
      properties: { error: { type: "string" }, operation_id: { type: "string" }, hint: { type: "string" } },
      required: ["error", "operation_id"],
    },
  };
}

function commonResponses(): Record<string, unknown> {
  const codeHeader = { schema: { $ref: `${SCHEMA_REF}KnownErrorCode` } };
  return {
    KnownError: {
      description:
        "A known error: the status is the one the catalogue fixes for the code (e.g. SCHEMA_ERROR 400, USER_NOT_FOUND 404). The code comes in x-stack-known-error, or in x-hexclave-known-error when the request used x-hexclave-* headers.",
      headers: { "x-stack-known-error": codeHeader, "x-hexclave-known-error": codeHeader },
      content: { "application/json": { schema: { $ref: `${SCHEMA_REF}KnownError` } } },
    },
    NotImplemented: {
      description: "Part of the contract, not built in authsim yet.",
      content: { "application/json": { schema: { $ref: `${SCHEMA_REF}NotImplemented` } } },
    },
  };
}

let cached: OpenApiDocument | null = null;

/** The document with `servers` naming this provider's API (`<apiBaseUrl>/api/v1`). */
export function openApiDocument(apiBaseUrl: string): OpenApiDocument {
  cached ??= build();
  return { ...cached, servers: [{ url: `${apiBaseUrl}${API_PREFIX}`, description: "This emulator" }] };
}
