import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { client, expectJson, newProvider, request, server, signUp, type TestProvider } from "../../test-support/api.ts";

/**
 * A path the API serves, asked with one of the API's methods that its route does not serve: an empty 405, before any
 * authentication (api/routes/mount.ts, methodNotAllowed). Unknown paths stay the plain-text 404, and methods outside the
 * API's set the plain-text 405.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

describe("a method the path does not serve", () => {
  it("answers POST on a GET-only path with an empty 405, without credentials", async () => {
    const response = await request(provider, "/api/v1/internal/component-versions", { method: "POST", json: {} });
    expect(response.status).toBe(405);
    expect(await response.text()).toBe("");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("x-stack-request-id")).not.toBeNull();
  });

  it("answers the same under a path with parameters and under /api/latest", async () => {
    const user = await signUp(provider);
    const response = await request(provider, `/api/latest/users/${user.user_id}/nope-no`, {
      method: "PUT",
      headers: server(),
    });
    expect(response.status).toBe(404);
    const put = await request(provider, `/api/latest/users/${user.user_id}`, {
      method: "PUT",
      headers: server(),
      json: {},
    });
    expect(put.status).toBe(405);
  });

  it("still lets a fixed path beside a parameter path reach its operation", async () => {
    const user = await signUp(provider);
    const me = await request(provider, "/api/v1/users/me", { headers: client({ accessToken: user.access_token }) });
    expect(await expectJson<{ id: string }>(me)).toMatchObject({ id: user.user_id });
  });

  it("keeps the plain-text 405 for methods outside the API's set", async () => {
    const response = await request(provider, "/api/v1/internal/component-versions", { method: "PROPFIND" });
    expect(response.status).toBe(405);
    expect(await response.text()).toBe("Method not allowed");
  });
});
