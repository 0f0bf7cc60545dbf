import { describe, expect, it } from "vitest";
import { operations } from "./operations.ts";
import { fillPathParams, pathParamNames } from "./path-params.ts";

describe("path parameters", () => {
  it("names snake_case, camelCase and patterned parameters in order", () => {
    expect(pathParamNames("/teams/:team_id/users/:user_id")).toEqual(["team_id", "user_id"]);
    expect(pathParamNames("/internal/ai-conversations/:conversationId/messages")).toEqual(["conversationId"]);
    expect(pathParamNames("/integrations/ai-proxy/:path{.+}")).toEqual(["path"]);
    expect(pathParamNames("/users")).toEqual([]);
  });

  it("replaces a parameter with its pattern, leaving no colon or brace behind", () => {
    expect(fillPathParams("/integrations/ai-proxy/:path{.+}", () => "v1/models")).toBe(
      "/integrations/ai-proxy/v1/models",
    );
    expect(fillPathParams("/a/:x/b/:y", (name, i) => `${name}${i}`)).toBe("/a/x0/b/y1");
  });

  it("leaves no parameter unfilled in any contract path", () => {
    for (const operation of operations) {
      const filled = fillPathParams(operation.path, () => "v");
      expect(filled, operation.id).not.toMatch(/[:{}]/);
    }
  });
});
