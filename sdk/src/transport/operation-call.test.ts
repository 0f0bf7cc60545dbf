import { describe, expect, it } from "vitest";
import { clientUser, serverUser, userView } from "../contract/areas/users.ts";
import { operationsById } from "../contract/operations.ts";
import { answerSchema, asClient, asServer, operationPath, operationRequest } from "./operation-call.ts";
import type { RequestOptions, Transport, TransportResponse } from "./transport.ts";

/** A transport that records what it is asked and answers `{}`: the helper's whole job is the (path, options) it builds. */
function recordingTransport(): { transport: Transport; calls: { path: string; init: RequestOptions | undefined }[] } {
  const calls: { path: string; init: RequestOptions | undefined }[] = [];
  const answer: TransportResponse = { status: 200, headers: new Headers(), text: "{}", url: "" };
  const transport = {
    request: async (path: string, init?: RequestOptions) => {
      calls.push({ path, init });
      return answer;
    },
    requestJson: async (path: string, init: RequestOptions) => {
      calls.push({ path, init });
      return {};
    },
  } as unknown as Transport;
  return { transport, calls };
}

describe("operationPath", () => {
  it("fills each :param with its URL-encoded value", () => {
    expect(operationPath("updateContactChannel", { user_id: "me", channel_id: "a/b c" })).toBe(
      "/contact-channels/me/a%2Fb%20c",
    );
    expect(operationPath("jwks", { project_id: "p?1" })).toBe("/projects/p%3F1/.well-known/jwks.json");
  });

  it("refuses a path parameter without a value rather than sending ':name'", () => {
    expect(() => operationPath("getUser", {})).toThrow(/:user_id/);
  });

  it("leaves a path without parameters as the contract spells it", () => {
    expect(operationPath("getMe")).toBe("/users/me");
  });
});

describe("operationRequest", () => {
  it("takes the method from the contract and passes session, query and body through unchanged", () => {
    const session = null;
    const { path, init } = operationRequest("deleteSession", {
      session,
      allowAnonymousUser: true,
      params: { session_id: "s1" },
      query: { user_id: "u" },
    });
    expect(path).toBe("/auth/sessions/s1");
    expect(init).toEqual({ session: null, allowAnonymousUser: true, method: "DELETE", query: { user_id: "u" } });
    expect("body" in init).toBe(false);
  });

  it("keeps an explicit empty body (it decides the content-type header)", () => {
    expect(operationRequest("deleteTeam", { params: { team_id: "t" }, body: {} }).init).toEqual({
      method: "DELETE",
      body: {},
    });
  });
});

describe("answerSchema", () => {
  it("parses an answer chosen by who calls with the caller's view, and any other with the operation's one schema", () => {
    expect(answerSchema("getMe", "client")).toBe(clientUser);
    expect(answerSchema("getMe", "server")).toBe(serverUser);
    expect(answerSchema("getUser", "server")).toBe(serverUser);
    expect(answerSchema("getUser", "client")).toBe(serverUser);
    expect(userView.options).toEqual([clientUser, serverUser]);
  });

  it("takes the first JSON answer of an operation with a redirect beside it, and refuses one with none", () => {
    const authorize = operationsById.get("oauthAuthorize")!.responses.find((r) => r.kind === "json");
    expect(answerSchema("oauthAuthorize", "client")).toBe(authorize?.kind === "json" ? authorize.schema : undefined);
    expect(() => answerSchema("root", "client")).toThrow(/answers no JSON/);
  });
});

describe("asClient / asServer", () => {
  it("hand the transport the contract's path and method", async () => {
    const { transport, calls } = recordingTransport();
    await asClient.send(transport, "updateMe", { body: { display_name: "Ann" } });
    await asServer.json(transport, "updateUser", { params: { user_id: "u1" }, body: { server_metadata: { a: 1 } } });
    expect(calls).toEqual([
      { path: "/users/me", init: { method: "PATCH", body: { display_name: "Ann" } } },
      { path: "/users/u1", init: { method: "PATCH", body: { server_metadata: { a: 1 } } } },
    ]);
  });

  it("types a per-caller body by the caller, and requires the contract's path parameters", async () => {
    const { transport, calls } = recordingTransport();
    // @ts-expect-error server_metadata is a server-only field of PATCH /users/me
    await asClient.send(transport, "updateMe", { body: { server_metadata: {} } });
    await asServer.send(transport, "updateMe", { body: { server_metadata: {} } });
    expect(calls.map((c) => c.init?.body)).toEqual([{ server_metadata: {} }, { server_metadata: {} }]);
    // @ts-expect-error a path parameter of the contract is required
    await expect(asServer.send(transport, "getUser", {})).rejects.toThrow(/:user_id/);
    expect(calls).toHaveLength(2);
  });
});
