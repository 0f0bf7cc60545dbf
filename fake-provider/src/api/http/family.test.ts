import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { headerFamilyOf, knownErrorMessage } from "@authsim/sdk/contract";
import {
  DEV,
  api,
  client,
  expectKnownError,
  newProvider,
  request,
  server,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * Answers follow the header family of the request (protocol.md §0): x-stack-* in, x-stack-* out and "Stack" wording;
 * x-hexclave-* in (the published SDK), x-hexclave-* out and "Hexclave" wording; never both families at once.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const familyHeaders = (response: Response, prefix: string) =>
  [...response.headers.keys()].filter((name) => name.startsWith(prefix));

describe("the header family of an answer", () => {
  it("answers a request with x-stack-* headers with x-stack-* headers only", async () => {
    const response = await api(provider, "/users", { headers: client({ overrideErrorStatus: "true" }) });
    expect(familyHeaders(response, "x-hexclave-")).toEqual([]);
    expect(familyHeaders(response, "x-stack-").sort()).toEqual([
      "x-stack-actual-status",
      "x-stack-known-error",
      "x-stack-request-id",
    ]);
  });

  it("answers a request with x-hexclave-* headers with x-hexclave-* headers only", async () => {
    const response = await api(provider, "/users", {
      family: "hexclave",
      headers: client({ overrideErrorStatus: "true" }),
    });
    expect(familyHeaders(response, "x-stack-")).toEqual([]);
    expect(familyHeaders(response, "x-hexclave-").sort()).toEqual([
      "x-hexclave-actual-status",
      "x-hexclave-known-error",
      "x-hexclave-request-id",
    ]);
  });

  it("answers a request naming neither family in x-stack-*, as the real service does", async () => {
    const response = await request(provider, "/api/v1/users");
    await expectKnownError(response.clone(), "ACCESS_TYPE_REQUIRED", 400, "stack");
    expect(familyHeaders(response, "x-hexclave-")).toEqual([]);
  });

  it("answers the 404 of an unknown path and a 405 in the request's family", async () => {
    const missing = await request(provider, "/api/v1/no-such-thing", {
      family: "hexclave",
      headers: { projectId: DEV.id },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-hexclave-request-id")).not.toBeNull();
    expect(familyHeaders(missing, "x-stack-")).toEqual([]);
  });

  it("keeps both families in the CORS allow and expose lists, whatever the request used", async () => {
    const response = await api(provider, "/", { headers: client() });
    const exposed = response.headers.get("access-control-expose-headers") ?? "";
    expect(exposed).toContain("x-stack-known-error");
    expect(exposed).toContain("x-hexclave-known-error");
  });
});

describe("the wording of a known error", () => {
  it("names x-stack-* headers and Stack for an x-stack-* caller", async () => {
    const body = await expectKnownError(
      await api(provider, "/", { headers: { accessType: "client" } }),
      "ACCESS_TYPE_WITHOUT_PROJECT_ID",
      400,
      "stack",
    );
    expect(body.error).toBe(
      "The x-stack-access-type header was 'client', but the x-stack-project-id header was not provided.\n\n" +
        "For more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication",
    );
    const insufficient = await expectKnownError(
      await api(provider, "/users", { headers: client() }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
      "stack",
    );
    expect(insufficient.error).toBe("The x-stack-access-type header must be 'server' or 'admin', but was 'client'.");
  });

  it("names x-hexclave-* headers for an x-hexclave-* caller", async () => {
    const response = await api(provider, "/", { family: "hexclave", headers: { accessType: "client" } });
    const body = await expectKnownError(response, "ACCESS_TYPE_WITHOUT_PROJECT_ID", 400, "hexclave");
    expect(body.error).toContain("The x-hexclave-access-type header was 'client'");
    expect(body.error).toContain("docs.hexclave.com");
  });

  it("words messages without a header or product name alike in both families", async () => {
    for (const family of ["stack", "hexclave"] as const) {
      const response = await api(provider, "/users/me", { family, headers: server() });
      const body = await expectKnownError(response, "CANNOT_GET_OWN_USER_WITHOUT_USER", 400, family);
      expect(body.error).toBe(knownErrorMessage("CANNOT_GET_OWN_USER_WITHOUT_USER"));
    }
  });

  it("takes a request mixing both families as x-hexclave-*, which the published SDK reads first", () => {
    expect(headerFamilyOf(["x-stack-project-id", "x-hexclave-access-type"])).toBe("hexclave");
    expect(headerFamilyOf(["content-type", "X-Stack-Access-Type"])).toBe("stack");
  });
});
