import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { admin, api, client, expectKnownError, INTERNAL, newProvider, type TestProvider } from "../../test-support/api.ts";

/** POST /internal/local-emulator/project: a mode authsim is never in, refused as the real service refuses it outside it. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

describe("the local-emulator project route", () => {
  it("answers the internal project's callers with the mode's plain-text 400, whatever the path", async () => {
    for (const absolute_file_path of ["/tmp/x/stack.config.ts", "relative/stack.config.ts"]) {
      const response = await api(provider, "/internal/local-emulator/project", { headers: admin({}, INTERNAL), json: { absolute_file_path } });
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBeNull();
      expect(await response.text()).toContain("NEXT_PUBLIC_STACK_IS_LOCAL_EMULATOR=true");
    }
  });

  it("refuses another project's caller with a SCHEMA_ERROR naming the project rule", async () => {
    const response = await api(provider, "/internal/local-emulator/project", { headers: client(), json: { absolute_file_path: "/tmp/a.ts" } });
    const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(body.error).toContain("auth.project.id must be one of the following values: internal");
  });

  it("checks the body first: the path is required", async () => {
    const response = await api(provider, "/internal/local-emulator/project", { headers: admin({}, INTERNAL), json: {} });
    await expectKnownError(response, "SCHEMA_ERROR", 400);
  });
});
