import { describe, expect, it } from "vitest";
import { created, ok, type RouteTable } from "./define.ts";

// The typecheck (`npm run typecheck`) compiles this file: each `@ts-expect-error` below must be an error there, so an
// answer that does not fit its operation's schema stays a compile error.

describe("route answers typed by the operation's answer schema", () => {
  it("takes an answer of the schema's shape, readonly arrays included", async () => {
    const urls = ["http://localhost:8102"] as const;
    const routes: RouteTable = {
      backendUrls: { handler: () => ok({ urls }) },
      addTeamMember: { handler: ({ params }) => created({ team_id: params.team_id, user_id: params.user_id }) },
    };
    expect(await routes.backendUrls!.handler({} as never)).toEqual({ json: { urls } });
  });

  it("refuses, when compiling, an answer the schema does not describe", () => {
    const routes: RouteTable = {
      // @ts-expect-error `urls` is a list of strings, not one string
      backendUrls: { handler: () => ok({ urls: "http://localhost:8102" }) },
      // @ts-expect-error `is_code_valid` is always true in the answer (a wrong code is a known error)
      checkResetCode: { handler: () => ok({ is_code_valid: false }) },
    };
    expect(Object.keys(routes)).toEqual(["backendUrls", "checkResetCode"]);
  });
});
