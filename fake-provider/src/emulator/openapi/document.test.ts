import { describe, expect, it } from "vitest";
import { fillPathParams, operations } from "@authsim/sdk/contract";
import { api, expectJson, newProvider, server, signUp } from "../../test-support/api.ts";
import { openApiDocument, openApiPath, type OpenApiOperation } from "./document.ts";
import { refsIn, SCHEMA_REF, type JsonSchema } from "./schemas.ts";

/** The OpenAPI document generated from the contract: structurally valid, complete, and true to what the provider sends. */
const doc = openApiDocument("http://localhost:8102");
const entries = Object.entries(doc.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ path, method, op })),
);
const byId = new Map(entries.map((e) => [e.op.operationId, e]));

/** Every `$ref` anywhere in the document, as written. */
function allRefs(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) allRefs(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") into.push(inner);
      else allRefs(inner, into);
    }
  }
  return into;
}

function resolve(ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .reduce<unknown>(
      (node, key) => (typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined),
      doc,
    );
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 naming this provider's API as its server", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.servers).toEqual([{ url: "http://localhost:8102/api/v1", description: "This emulator" }]);
  });

  it("has every operation of operations.ts exactly once, under its method and {param} path", () => {
    expect(entries).toHaveLength(operations.length);
    for (const operation of operations) {
      const entry = byId.get(operation.id);
      expect(entry, operation.id).toBeDefined();
      expect([entry!.method, entry!.path]).toEqual([operation.method.toLowerCase(), openApiPath(operation.path)]);
      expect(entry!.op["x-authsim-access"]).toBe(operation.access);
      expect(entry!.op.tags).toEqual([operation.area]);
    }
  });

  it("uses OpenAPI path templating, with a required path parameter for each template", () => {
    for (const { path, op } of entries) {
      expect(path, path).not.toContain(":");
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const pathParams = op.parameters.filter((p) => p.in === "path");
      expect(
        pathParams.map((p) => p.name),
        path,
      ).toEqual(templated);
      expect(pathParams.every((p) => p.required)).toBe(true);
    }
  });

  it("resolves every $ref, and keeps no component that nothing reaches", () => {
    const refs = allRefs(doc);
    expect(refs.length).toBeGreaterThan(300);
    expect(refs.filter((ref) => resolve(ref) === undefined)).toEqual([]);
    const schemas = doc.components.schemas;
    const reached = new Set<string>();
    const queue = [...refsIn(doc.paths), ...refsIn(doc.components.responses)];
    for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
      if (reached.has(name)) continue;
      reached.add(name);
      queue.push(...refsIn(schemas[name]));
    }
    expect(Object.keys(schemas).filter((name) => !reached.has(name))).toEqual([]);
  });

  it("names only declared security schemes, and none for operations open to anyone", () => {
    const declared = new Set(Object.keys(doc.components.securitySchemes));
    for (const { op } of entries) {
      for (const alternative of op.security)
        for (const name of Object.keys(alternative)) expect(declared).toContain(name);
      if (op["x-authsim-access"] === "none") expect(op.security).toEqual([]);
    }
    expect(doc.components.securitySchemes.secretServerKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-stack-secret-server-key",
    });
  });

  it("describes requests with the schemas the routes parse, and answers with the contract's response schemas", () => {
    const body = (id: string) => Object.values(byId.get(id)!.op.requestBody?.content ?? {})[0]?.schema;
    expect(body("passwordSignUp")).toEqual({ $ref: `${SCHEMA_REF}passwordSignUpBody` });
    expect(byId.get("oauthToken")!.op.requestBody?.content).toHaveProperty("application/x-www-form-urlencoded");
    expect(byId.get("getMe")!.op.requestBody).toBeUndefined();
    expect(byId.get("listUsers")!.op.parameters.map((p) => p.name)).toContain("include_anonymous");
    const answer = (op: OpenApiOperation, status: string) =>
      (op.responses[status] as { content?: Record<string, { schema: JsonSchema }> }).content;
    expect(answer(byId.get("createUser")!.op, "201")?.["application/json"]?.schema).toEqual({
      $ref: `${SCHEMA_REF}serverUser`,
    });
    expect(byId.get("createUser")!.op.responses.default).toEqual({ $ref: "#/components/responses/KnownError" });
  });

  it("documents each operation's answers as the contract lists them, status by status, plus the known error", () => {
    for (const operation of operations) {
      const documented = Object.keys(byId.get(operation.id)!.op.responses).sort();
      const listed = [...operation.responses.map((r) => String(r.status)), "default"].sort();
      expect(documented, operation.id).toEqual(listed);
    }
  });

  it("matches what the provider sends: a server user has exactly the fields serverUser lists, the required ones included", async () => {
    const provider = newProvider();
    const user = await signUp(provider);
    const body = await expectJson<Record<string, unknown>>(
      await api(provider, `/users/${user.user_id}`, { headers: server() }),
    );
    const schema = doc.components.schemas.serverUser as {
      properties: Record<string, unknown>;
      required: string[];
      additionalProperties?: boolean;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(body).filter((key) => !(key in schema.properties))).toEqual([]);
    expect(schema.required.filter((key) => !(key in body))).toEqual([]);
  });

  it("marks exactly the operations that answer 501 as not implemented", async () => {
    const provider = newProvider();
    for (const operation of operations) {
      const { op } = byId.get(operation.id)!;
      const response = await api(
        provider,
        fillPathParams(operation.path, () => "x"),
        {
          method: operation.method,
          headers: server(),
        },
      );
      expect(response.status === 501, operation.id).toBe(!op["x-authsim-implemented"]);
      if (!op["x-authsim-implemented"])
        expect(op.responses["501"]).toEqual({ $ref: "#/components/responses/NotImplemented" });
    }
  });
});
