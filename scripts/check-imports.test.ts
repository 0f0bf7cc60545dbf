import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cycles, importGraph, layerRules, loopThrough } from "./check-imports.ts";

const graphOf = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe("cycles", () => {
  it("finds each strongly connected group once and ignores a chain", () => {
    const graph = graphOf({ a: ["b"], b: ["c"], c: ["a", "d"], d: ["e"], e: [], x: ["y"], y: ["x"] });
    expect(
      cycles(graph)
        .map((c) => c.join(" "))
        .sort(),
    ).toEqual(["a b c", "x y"]);
    expect(cycles(graphOf({ a: ["b"], b: ["c"], c: [] }))).toEqual([]);
  });

  it("counts a file that imports itself", () => {
    expect(cycles(graphOf({ a: ["a"], b: [] }))).toEqual([["a"]]);
  });

  it("names a cycle as a shortest loop through its first file", () => {
    const graph = graphOf({ a: ["b", "d"], b: ["c"], c: ["a"], d: ["a"] });
    const [component] = cycles(graph);
    expect(loopThrough(component!, graph)).toEqual(["a", "d", "a"]);
  });
});

describe("importGraph", () => {
  it("follows type-only imports and re-exports, not packages outside the set", () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "check-imports-")));
    try {
      const file = (name: string, text: string) => {
        fs.writeFileSync(path.join(dir, name), text);
        return path.join(dir, name);
      };
      const a = file(
        "a.ts",
        'import type { B } from "./b.ts";\nimport { z } from "zod";\nexport type A = B | typeof z;\n',
      );
      const b = file("b.ts", 'export type { A } from "./a.ts";\nexport type B = string;\n');
      const graph = importGraph([a, b]);
      expect(graph.get(a)).toEqual([b]);
      expect(graph.get(b)).toEqual([a]);
      expect(cycles(graph)).toEqual([[a, b].sort()]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("layerRules", () => {
  const broken = (from: string, to: string) =>
    layerRules.filter((r) => r.from.test(from) && r.forbidden.test(to)).map((r) => r.name);

  it("keep operations below routes, the control plane and the provider assembly", () => {
    expect(broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/api/routes/users.ts")).toHaveLength(
      1,
    );
    expect(
      broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/emulator/control/routes.ts"),
    ).toHaveLength(1);
    expect(broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/app.ts")).toHaveLength(1);
    expect(
      broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/domain/ops/sign-in/sessions.ts"),
    ).toEqual([]);
    expect(broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/domain/store/store.ts")).toEqual(
      [],
    );
  });

  it("keep the domain below the HTTP adapter, the emulator and the assembly", () => {
    expect(
      broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/api/auth/parse-auth.ts"),
    ).toHaveLength(1);
    expect(
      broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/emulator/mock-oauth/server.ts"),
    ).toHaveLength(1);
    expect(broken("fake-provider/src/domain/views/users.ts", "fake-provider/src/clock.ts")).toHaveLength(1);
    expect(
      broken("fake-provider/src/domain/store/store.ts", "fake-provider/src/domain/ops/users/users.ts"),
    ).toHaveLength(1);
    expect(
      broken("fake-provider/src/domain/errors/known-error.ts", "fake-provider/src/domain/store/records.ts"),
    ).toHaveLength(1);
    expect(
      broken("fake-provider/src/domain/ops/users/users.ts", "fake-provider/src/domain/errors/known-error.ts"),
    ).toEqual([]);
    expect(broken("fake-provider/src/domain/ops/users/users.ts", "sdk/src/client/client-app.ts")).toHaveLength(1);
    expect(broken("fake-provider/src/domain/ops/users/users.ts", "sdk/src/urls/domains.ts")).toEqual([]);
  });

  it("keep the HTTP adapter and the emulator's parts below the assembly and apart from the control plane", () => {
    expect(
      broken("fake-provider/src/api/routes/users.ts", "fake-provider/src/emulator/control/routes.ts"),
    ).toHaveLength(2);
    expect(broken("fake-provider/src/api/routes/mount.ts", "fake-provider/src/emulator/request-log/trace.ts")).toEqual(
      [],
    );
    expect(
      broken("fake-provider/src/api/routes/mount.ts", "fake-provider/src/emulator/request-log/request-log.ts"),
    ).toHaveLength(1);
    expect(broken("fake-provider/src/api/http/parse.ts", "fake-provider/src/api/routes/define.ts")).toHaveLength(1);
    expect(broken("fake-provider/src/api/routes/users.ts", "fake-provider/src/domain/ops/users/users.ts")).toEqual([]);
    expect(broken("fake-provider/src/emulator/mock-oauth/server.ts", "fake-provider/src/app.ts")).toHaveLength(1);
    expect(
      broken("fake-provider/src/emulator/faults/middleware.ts", "fake-provider/src/emulator/control/routes.ts"),
    ).toHaveLength(1);
    expect(broken("fake-provider/src/emulator/control/routes.ts", "fake-provider/src/provider.ts")).toEqual([]);
  });

  it("keep the contract below the apps", () => {
    expect(broken("sdk/src/contract/errors.ts", "sdk/src/client/client-app.ts")).toHaveLength(1);
    expect(broken("sdk/src/contract/errors.ts", "sdk/src/contract/catalogue.ts")).toEqual([]);
    expect(broken("sdk/src/server/users.ts", "sdk/src/admin/admin-app.ts")).toHaveLength(1);
    expect(broken("sdk/src/server/users.ts", "sdk/src/client/app-context.ts")).toEqual([]);
  });
});
