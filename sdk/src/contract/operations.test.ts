import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { operationDefinitions, operations, operationsById } from "./operations.ts";
import { fillPathParams } from "./path-params.ts";

/** The path pattern matches a concrete path, a `:name` part matching any one segment (as the router matches). */
const matches = (pattern: string, path: string) => {
  const want = pattern.split("/");
  const got = path.split("/");
  return want.length === got.length && want.every((part, i) => part.startsWith(":") || part === got[i]);
};

describe("the operation list", () => {
  it("holds each operation once, under its own id", () => {
    expect(operationsById.size).toBe(operations.length);
    expect(Object.keys(operationDefinitions).sort()).toEqual(operations.map((o) => o.id).sort());
    for (const operation of operations) expect(operationsById.get(operation.id)).toBe(operation);
  });

  it("names as each operation's area the file that defines it (areas/<area>.ts)", () => {
    const files = new Set(
      readdirSync(new URL("./areas/", import.meta.url))
        .filter((f) => !f.endsWith(".test.ts"))
        .map((f) => f.replace(/\.ts$/, "")),
    );
    for (const operation of operations)
      expect(files.has(operation.area), `${operation.id}: areas/${operation.area}.ts`).toBe(true);
  });

  it("reaches each operation at its own path: a static path is listed before a parametrised one that also matches it", () => {
    for (const operation of operations) {
      // Its own path with each parameter filled by a value no static segment has, and its static form as it is.
      const probe = fillPathParams(operation.path, () => "~value");
      const first = operations.find((o) => o.method === operation.method && matches(o.path, probe));
      expect(first?.id, `${operation.method} ${operation.path}`).toBe(operation.id);
    }
  });

  it("keeps no two operations on one method and path", () => {
    const keys = operations.map((o) => `${o.method} ${fillPathParams(o.path, () => ":")}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
