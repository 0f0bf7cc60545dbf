import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  INTERNAL,
  newProvider,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";

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
      const response = await api(provider, "/internal/local-emulator/project", {
        headers: admin({}, INTERNAL),
        json: { absolute_file_path },
      });
      expect(response.status).toBe(400);
      expect(response.headers.get("x-stack-known-error")).toBeNull();
      expect(await response.text()).toContain("NEXT_PUBLIC_STACK_IS_LOCAL_EMULATOR=true");
    }
  });

  it("refuses another project's caller with a SCHEMA_ERROR naming the project rule", async () => {
    const response = await api(provider, "/internal/local-emulator/project", {
      headers: client(),
      json: { absolute_file_path: "/tmp/a.ts" },
    });
    const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(body.error).toContain("auth.project.id must be one of the following values: internal");
  });

  it("checks the body first: the path is required", async () => {
    const response = await api(provider, "/internal/local-emulator/project", {
      headers: admin({}, INTERNAL),
      json: {},
    });
    await expectKnownError(response, "SCHEMA_ERROR", 400);
  });
});

describe("the preview-project route", () => {
  it("refuses outside the real service's preview mode with its plain-text 403, for a user of the internal project", async () => {
    const owner = await signUp(provider, { project: INTERNAL });
    const response = await api(provider, "/internal/preview/create-project", {
      headers: client({ accessToken: owner.access_token }, INTERNAL),
      json: {},
    });
    expect(response.status).toBe(403);
    expect(response.headers.get("x-stack-known-error")).toBeNull();
    expect(await response.text()).toBe("This endpoint is only available in preview mode");
  });

  it("names every caller rule the request breaks in one SCHEMA_ERROR: no user, then another project", async () => {
    const body = await expectKnownError(
      await api(provider, "/internal/preview/create-project", { headers: client(), json: {} }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain(
      "auth.user must be defined\n  - auth.project.id must be one of the following values: internal",
    );
  });

  it("refuses body fields with SCHEMA_ERROR", async () => {
    const owner = await signUp(provider, { project: INTERNAL });
    await expectKnownError(
      await api(provider, "/internal/preview/create-project", {
        headers: client({ accessToken: owner.access_token }, INTERNAL),
        json: { name: "x" },
      }),
      "SCHEMA_ERROR",
      400,
    );
  });
});

describe("the init-script report", () => {
  const report = {
    success: false,
    options: { yes: true },
    args: ["--yes"],
    isNonInteractive: true,
    timestamp: "2026-01-01T00:00:00.000Z",
    error: { name: "Error", message: "boom", stack: "x".repeat(5000) },
  };

  it("takes a report from anyone and keeps it as one chat message, the stack cut", async () => {
    expect(await expectJson(await api(provider, "/internal/init-script-callback", { json: report }))).toEqual({
      success: true,
    });
    const messages = [...provider.store.read.chatMessages.values()];
    expect(messages).toHaveLength(1);
    expect(messages[0]!.channel).toBe("init-stack");
    expect(messages[0]!.text).toContain("error: Error: boom");
    expect(messages[0]!.text.length).toBeLessThan(4500);
  });

  it("refuses a report without its required fields, and keeps nothing", async () => {
    const { options: _options, ...withoutOptions } = report;
    const body = await expectKnownError(
      await api(provider, "/internal/init-script-callback", { json: withoutOptions }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain("body.options must be defined");
    await expectKnownError(
      await api(provider, "/internal/init-script-callback", { json: { ...report, args: [1] } }),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(
      await api(provider, "/internal/init-script-callback", { json: { ...report, extra: 1 } }),
      "SCHEMA_ERROR",
      400,
    );
    expect(provider.store.read.chatMessages.size).toBe(0);
  });
});
