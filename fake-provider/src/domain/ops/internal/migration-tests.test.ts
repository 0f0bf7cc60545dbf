import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api, expectKnownError, newProvider, type TestProvider } from "../../../test-support/api.ts";

/** GET /migration-tests and /migration-tests/smart-route-handler: upstream's fixed texts, from the request. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

describe("the migration-test routes", () => {
  it("lists the tests as URLs resolved against the request's own URL, without authentication", async () => {
    const response = await api(provider, "/migration-tests?anything=1");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const body = await response.text();
    const [first, blank, link] = body.split("\n");
    expect(first).toMatch(
      /^You are on http:\/\/[^ ]+\/api\/v1\/migration-tests\?anything=1\. Please pick a migration test\.$/,
    );
    expect(blank).toBe("");
    // "./smart-route-handler" resolves against the last path segment, as a URL does.
    expect(link).toMatch(/^- http:\/\/[^ ]+\/api\/v1\/smart-route-handler$/);
  });

  it("echoes queryParamNew, or says it was not given, then lists the five versions", async () => {
    const given = await (await api(provider, "/migration-tests/smart-route-handler?queryParamNew=hello")).text();
    expect(given.split("\n")[2]).toBe("The query parameter you passed in is: hello");
    const none = await (await api(provider, "/migration-tests/smart-route-handler")).text();
    expect(none.split("\n")[2]).toMatch(/^Looks like you didn't pass in the query parameter/);
    expect(none.split("\n").filter((line) => /^- v\d/.test(line))).toHaveLength(5);
  });

  it("refuses an unknown query parameter with SCHEMA_ERROR", async () => {
    await expectKnownError(
      await api(provider, "/migration-tests/smart-route-handler?queryParam=old"),
      "SCHEMA_ERROR",
      400,
    );
  });
});
