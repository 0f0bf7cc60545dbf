import { readFileSync } from "node:fs";
import { operations } from "@authsim/sdk/contract";
import { describe, expect, it } from "vitest";
import { exportedMethods, routePathOf } from "./route-audit.ts";
import { parseRoutesDoc, routeKey, routesDocPath } from "./routes-doc.ts";

/** docs/routes.md against the contract: every operation it names answers that method and path. */
describe("docs/routes.md", () => {
  const rows = parseRoutesDoc(readFileSync(routesDocPath, "utf8"));

  it("lists each real route once", () => {
    expect(rows.length).toBeGreaterThanOrEqual(274);
    const keys = rows.map((r) => routeKey(r.method, r.path));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("names only operations of the contract, each at the route's method and path", () => {
    const byId = new Map(operations.map((o) => [o.id as string, o]));
    const wrong = rows
      .filter((r) => r.operation !== "")
      .filter((r) => {
        const op = byId.get(r.operation);
        return op === undefined || routeKey(op.method, op.path) !== routeKey(r.method, r.path);
      });
    expect(wrong).toEqual([]);
  });

  it("names every contract operation that answers a real route", () => {
    const named = new Set(rows.map((r) => r.operation));
    const real = new Set(rows.map((r) => routeKey(r.method, r.path)));
    const missing = operations.filter((o) => real.has(routeKey(o.method, o.path)) && !named.has(o.id)).map((o) => o.id);
    expect(missing).toEqual([]);
  });
});

describe("the generator's reading of a route file", () => {
  it("turns folders into a path: groups dropped, [param] and [...rest] as parameters", () => {
    expect(routePathOf("apps/backend/src/app/api/latest/(api-keys)/team-api-keys/[api_key_id]/route.tsx")).toBe(
      "/team-api-keys/:api_key_id",
    );
    expect(routePathOf("apps/backend/src/app/api/latest/route.tsx")).toBe("/");
    expect(routePathOf("apps/backend/src/app/api/latest/integrations/x/[...path]/route.ts")).toBe(
      "/integrations/x/:path*",
    );
    expect(routePathOf("apps/backend/src/app/api/latest/integrations/x/[[...path]]/route.ts")).toBe(
      "/integrations/x/:path*",
    );
  });

  it("finds the methods however they are exported", () => {
    expect(exportedMethods("export const GET = a;\nexport const POST = b;")).toEqual(["GET", "POST"]);
    expect(exportedMethods("export const { GET, PATCH, DELETE } = handlers;")).toEqual(["GET", "PATCH", "DELETE"]);
    expect(exportedMethods("export async function PUT(req) {}\nconst GETTER = 1;")).toEqual(["PUT"]);
  });
});
