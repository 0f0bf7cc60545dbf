import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { opSeam } from "../../../test-support/op-seam.ts";
import { projectJwks } from "./project-jwks.ts";

/** A project's published keys (protocol.md §4.1), at the op's seam. */

const NORMAL_ONLY = { includeRestricted: false, includeAnonymous: false };

describe("projectJwks", () => {
  it("publishes public keys only, more of them when restricted and anonymous users' keys are asked for", async () => {
    const seam = opSeam();
    const normal = await seam.ok((ctx) => projectJwks(ctx, devProjectSeed.id, NORMAL_ONLY));
    const all = await seam.ok((ctx) =>
      projectJwks(ctx, devProjectSeed.id, { includeRestricted: true, includeAnonymous: true }),
    );
    expect(normal.keys.length).toBeGreaterThan(0);
    expect(all.keys.length).toBeGreaterThan(normal.keys.length);
    for (const key of all.keys) expect(Object.keys(key).sort()).toEqual(["alg", "crv", "kid", "kty", "x", "y"]);
  });

  it("answers a project it does not know with upstream's plain 404", async () => {
    const seam = opSeam();
    expect((await seam.refuses((ctx) => projectJwks(ctx, "no-such-project", NORMAL_ONLY), 404)).message).toBe(
      "Project not found",
    );
  });
});
