import { describe, expect, it } from "vitest";
import { headerNames, type HeaderKey } from "@authsim/sdk/contract";
import { hasStackHeader, stackHeader } from "./headers.ts";

describe("a Stack header in either family", () => {
  const keys = Object.keys(headerNames) as HeaderKey[];

  it("reads every header under its x-stack-* and its x-hexclave-* name", () => {
    for (const key of keys) {
      const legacy = headerNames[key];
      const hexclave = legacy.replace(/^x-stack-/, "x-hexclave-");
      expect(stackHeader(new Headers({ [legacy]: "a" }), key)).toBe("a");
      expect(stackHeader(new Headers({ [hexclave]: "b" }), key)).toBe("b");
      expect(hasStackHeader(new Headers({ [hexclave]: "" }), key)).toBe(true);
      expect(stackHeader(new Headers(), key)).toBeNull();
      expect(hasStackHeader(new Headers(), key)).toBe(false);
    }
  });

  it("prefers the x-stack-* value and counts an empty value as absent", () => {
    expect(
      stackHeader(new Headers({ "x-stack-project-id": "legacy", "x-hexclave-project-id": "new" }), "projectId"),
    ).toBe("legacy");
    expect(stackHeader(new Headers({ "x-stack-project-id": "" }), "projectId")).toBeNull();
  });
});
