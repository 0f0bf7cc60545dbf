import { describe, expect, it, vi } from "vitest";
import { renderEmailSources } from "./sandbox.ts";

// What a browser bundle gets for `#email-engine` (package.json "imports", no "node" condition): see engine.ts.
vi.mock("#email-engine", () => import("./no-engine.ts"));

describe("rendering TSX emails where the runtime has no engine", () => {
  it("answers EMAIL_RENDERING_ERROR naming the missing sandbox, instead of failing on a Node built-in", async () => {
    const rendering = renderEmailSources({
      themeSource: null,
      templateSource: "export function EmailTemplate() { return null; }",
      project: { displayName: "P" },
    });
    await expect(rendering).rejects.toMatchObject({
      code: "EMAIL_RENDERING_ERROR",
      details: { error: expect.stringMatching(/needs the QuickJS sandbox/) },
    });
  });
});
