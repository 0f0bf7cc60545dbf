import { describe, expect, it } from "vitest";
import { z } from "zod";
import { knownErrorSpec } from "./errors.ts";
import { operationDefinitions, operations } from "./operations.ts";
import { pathParamNames } from "./path-params.ts";
import { bodyForCaller, noBody } from "./requests.ts";

describe("operation requests", () => {
  it("names, for every operation with a params schema, exactly the parameters of its path", () => {
    for (const operation of operations) {
      const params = operation.request.params;
      if (!params) continue;
      const names = pathParamNames(operation.path).sort();
      expect(params, operation.id).toBeInstanceOf(z.ZodObject);
      expect(Object.keys((params as z.ZodObject).shape).sort(), operation.id).toEqual(names);
    }
  });

  it("lists only concrete catalogue codes, each once", () => {
    for (const operation of operations) {
      expect(new Set(operation.request.errors).size, operation.id).toBe(operation.request.errors.length);
      for (const code of operation.request.errors)
        expect(knownErrorSpec(code).abstract, `${operation.id} ${code}`).toBe(false);
    }
  });

  it("holds a client to the narrower body where the body depends on who calls", () => {
    const body = (type: "client" | "server" | "admin" | null) => bodyForCaller(operationDefinitions.updateMe, type);
    expect(body("client")).toBe(operationDefinitions.updateMe.body.client);
    expect(body("server")).toBe(operationDefinitions.updateMe.body.server);
    expect(body("admin")).toBe(operationDefinitions.updateMe.body.server);
    expect(body("client").safeParse({ server_metadata: { a: 1 } }).success).toBe(false);
    expect(body("server").safeParse({ server_metadata: { a: 1 } }).success).toBe(true);
  });

  it("takes no body, or {}, from an operation that names none", () => {
    expect(bodyForCaller(operationDefinitions.getMe, "client")).toBe(noBody);
    expect(noBody.safeParse(undefined).success).toBe(true);
    expect(noBody.safeParse({}).success).toBe(true);
    expect(noBody.safeParse({ a: 1 }).success).toBe(false);
  });
});
