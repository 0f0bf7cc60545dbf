import { describe, expect, it } from "vitest";
import * as c from "@authsim/sdk/contract";
import { shapeOf } from "./request-shape.ts";

const shape = (id: c.OperationId) => shapeOf(c.operationsById.get(id)!);

describe("the fuzzer's request shapes, from the contract", () => {
  it("draws a body from the operation's own schema", () => {
    expect(shape("passwordSignUp")).toEqual({ body: c.passwordSignUpBody });
    expect(shape("updateUserApiKey")).toEqual({ body: c.apiKeyUpdate, query: c.userApiKeyItemQuery });
  });

  it("draws client bodies from the client's schema where the body depends on who calls", () => {
    expect(shape("updateMe")).toEqual({ body: c.serverUserUpdate, clientBody: c.clientUserUpdate });
    expect(shape("createTeam")).toEqual({ body: c.serverTeamCreate, clientBody: c.clientTeamCreate });
  });

  it("sends no body to an operation that takes none, with its query when it has one", () => {
    expect(shape("deleteSession")).toEqual({ query: c.sessionDeleteQuery, noBody: true });
    expect(shape("deleteMe")).toEqual({ noBody: true });
    // Its schema takes anything (the route ignores the body), and the SDKs send none.
    expect(shape("deleteTeam")).toEqual({ noBody: true });
  });

  it("sends forms where the contract says the body is a form", () => {
    expect(shape("oauthToken")).toEqual({ body: c.oauthTokenBody, form: true });
    expect(shape("oauthCallbackPost").form).toBe(true);
  });

  it("draws from the field vocabulary for a body schema that names no fields", () => {
    expect(shape("sendEmail")).toEqual({});
  });

  it("gives every operation that takes a body with fields a schema to draw it from", () => {
    for (const operation of c.operations) {
      if (operation.request.body === undefined || operation.method === "GET") continue;
      const drawn = shapeOf(operation);
      // The email bodies are checked against the real service's alternatives by the route; the two webhooks' bodies
      // are whatever their sender signed; the AI proxy's are the model provider's own; the integrations' OpenID
      // Connect provider reads its own forms.
      const anyBody = ["renderEmail", "sendEmail", "stripeWebhook", "resendWebhook", "aiProxyRootPost", "aiProxyPost"];
      const idp = /^(neon|custom)Idp/.test(operation.id);
      if (!drawn.body && !drawn.noBody && !idp) expect(anyBody, operation.id).toContain(operation.id);
    }
  });
});
