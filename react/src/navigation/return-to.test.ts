import { describe, expect, it } from "vitest";
import { isTrustedTarget, readReturnTo, RETURN_TO_PARAM, withReturnTo } from "./return-to.ts";

const page = new URL("http://127.0.0.1:5173/handler/sign-in?after_auth_return_to=%2Fdashboard");

describe("after_auth_return_to (spec §2)", () => {
  it("reads the parameter, ignoring an empty one", () => {
    expect(RETURN_TO_PARAM).toBe("after_auth_return_to");
    expect(readReturnTo(page)).toBe("/dashboard");
    expect(readReturnTo(new URL("http://x/handler/sign-in?after_auth_return_to="))).toBeNull();
    expect(readReturnTo(new URL("http://x/handler/sign-in"))).toBeNull();
  });

  it("adds it to a URL with or without a query, before any fragment, and leaves the URL alone without one", () => {
    expect(withReturnTo("/handler/sign-up", "/a?b=1")).toBe("/handler/sign-up?after_auth_return_to=%2Fa%3Fb%3D1");
    expect(withReturnTo("/handler/sign-up?x=1#top", "/a")).toBe("/handler/sign-up?x=1&after_auth_return_to=%2Fa#top");
    expect(withReturnTo("/handler/sign-up", null)).toBe("/handler/sign-up");
  });
});

describe("trusted redirect targets (spec §5)", () => {
  it("trusts the page's own origin, relative or absolute", () => {
    expect(isTrustedTarget("/dashboard", page, {})).toBe(true);
    expect(isTrustedTarget("http://127.0.0.1:5173/x", page, {})).toBe(true);
  });

  it("refuses other origins, other schemes and garbage unless a trusted domain matches", () => {
    expect(isTrustedTarget("https://evil.example/x", page, {})).toBe(false);
    expect(isTrustedTarget("http://127.0.0.1:9999/x", page, {})).toBe(false);
    expect(isTrustedTarget("javascript:alert(1)", page, {})).toBe(false);
    expect(isTrustedTarget("//evil.example/x", page, {})).toBe(false);
    expect(isTrustedTarget("http://[", page, {})).toBe(false);
  });

  it("accepts trusted domains (wildcards) and localhost only when allowed", () => {
    const trusted = { domains: [{ domain: "https://*.example.com" }] };
    expect(isTrustedTarget("https://app.example.com/home", page, trusted)).toBe(true);
    expect(isTrustedTarget("http://app.example.com/home", page, trusted)).toBe(false);
    expect(isTrustedTarget("http://localhost:3000/", page, {})).toBe(false);
    expect(isTrustedTarget("http://localhost:3000/", page, { allowLocalhost: true })).toBe(true);
  });
});
