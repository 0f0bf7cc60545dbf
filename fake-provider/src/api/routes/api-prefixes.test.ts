import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { API_PREFIXES } from "@authsim/sdk/contract";
import {
  ORIGIN,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  server,
  signUp,
  wire,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * `/api/latest` answers as `/api/v1` does (protocol.md §1, "Versioning": the real service serves its newest API at
 * /api/latest and rewrites /api/v1 onto it): the same operations, state, errors, log, faults, CORS and 404.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

describe.each(API_PREFIXES)("the API under %s", (prefix) => {
  it("serves the operations of the contract over the same state", async () => {
    const user = await signUp(provider);
    const me = await request(provider, `${prefix}/users/me`, { headers: client({ accessToken: user.access_token }) });
    expect(await expectJson<{ id: string }>(me)).toMatchObject({ id: user.user_id });
    const root = await request(provider, prefix, { headers: client() });
    expect(root.status).toBe(200);
    expect(await root.text()).toContain("Welcome");
  });

  it("names its own path in a SCHEMA_ERROR", async () => {
    const response = await request(provider, `${prefix}/users?nope=1`, { headers: server() });
    const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(body.error).toBe(
      `Request validation failed on GET ${prefix}/users:\n  - query contains unknown properties: nope`,
    );
  });

  it("answers an unknown path with the plain-text 404 naming the URL", async () => {
    const response = await request(provider, `${prefix}/no-such-thing`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(`URL: ${ORIGIN}${prefix}/no-such-thing`);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers a preflight and logs each request with its outcome", async () => {
    const preflight = await request(provider, `${prefix}/users/me`, {
      method: "OPTIONS",
      raw: { origin: "http://app.test" },
    });
    expect(preflight.status).toBe(200);
    await request(provider, `${prefix}/users`, { headers: client() });
    expect(provider.requestLog.list().find((e) => e.path === `${prefix}/users`)).toMatchObject({
      operationId: "listUsers",
      status: 401,
      knownError: "INSUFFICIENT_ACCESS_TYPE",
    });
  });

  it("applies fault rules written for the path after the prefix", async () => {
    provider.faults.add({
      path: "/projects/current",
      action: { type: "status", status: 429, headers: { "retry-after": "1" } },
    });
    const response = await provider.fetch(`${ORIGIN}${prefix}/projects/current`, { headers: wire(client()) });
    expect(response.status).toBe(429);
  });
});
