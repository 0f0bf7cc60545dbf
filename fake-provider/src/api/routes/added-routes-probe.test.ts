import { describe, expect, it } from "vitest";
import {
  client,
  DEV,
  INTERNAL,
  newProvider,
  request,
  server,
  signUp,
  type CallOptions,
} from "../../test-support/api.ts";

/**
 * The probe of issue 27's routes (those besides the Neon and custom integrations and the external-DB sync): each of
 * these method + path pairs of the real service, sent a well-formed request, is answered by an operation (never the
 * unknown-route 404, the 405 of an unserved method, or the 501 of an unbuilt operation), and never with a 500.
 */

describe("the routes issue 27 added", () => {
  it("are each answered by an operation of the contract", async () => {
    const answered: (string | null)[] = [];
    const provider = newProvider({ onAnswer: ({ operationId }) => void answered.push(operationId) });
    const user = await signUp(provider, { project: INTERNAL });
    const dashboard = client({ accessToken: user.access_token }, INTERNAL);
    const dev = await signUp(provider);
    const devUser = client({ accessToken: dev.access_token });
    const probes: [string, string, CallOptions][] = [
      ["POST", "/auth/oauth/connected-accounts/google/access-token", { headers: devUser, json: {} }],
      ["GET", "/integrations/ai-proxy/v1/models", {}],
      ["POST", "/integrations/ai-proxy/v1/messages", { json: { messages: [{ role: "user", content: "hi" }] } }],
      ["POST", "/integrations/credential-scanning/revoke", { json: { api_key: "sk_unknown" } }],
      [
        "POST",
        "/integrations/resend/webhooks",
        { json: {}, raw: { "svix-id": "m", "svix-timestamp": "1", "svix-signature": "v1,x" } },
      ],
      ["GET", `/internal/ai-conversations?projectId=${DEV.id}`, { headers: dashboard }],
      [
        "POST",
        "/internal/ai-conversations",
        { headers: dashboard, json: { title: "t", projectId: DEV.id, messages: [] } },
      ],
      ["GET", "/internal/ai-conversations/c", { headers: dashboard }],
      ["PATCH", "/internal/ai-conversations/c", { headers: dashboard, json: { title: "t" } }],
      ["DELETE", "/internal/ai-conversations/c", { headers: dashboard }],
      ["PUT", "/internal/ai-conversations/c/messages", { headers: dashboard, json: { messages: [] } }],
      ["POST", "/internal/analytics/query/timing", { headers: server(), json: { query_id: "q" } }],
      ["GET", "/internal/feature-requests", { headers: dashboard }],
      ["POST", "/internal/feature-requests", { headers: dashboard, json: { title: "t" } }],
      ["POST", "/internal/feature-requests/f/upvote", { headers: dashboard, json: {} }],
      [
        "POST",
        "/internal/init-script-callback",
        { json: { success: true, options: {}, args: [], isNonInteractive: false, timestamp: "t" } },
      ],
      [
        "POST",
        "/internal/mcp-review/add-manual",
        { headers: devUser, json: { question: "q", answer: "a", publish: false } },
      ],
      ["POST", "/internal/mcp-review/delete", { headers: devUser, json: { correlationId: "c" } }],
      ["POST", "/internal/mcp-review/mark-reviewed", { headers: devUser, json: { correlationId: "c" } }],
      [
        "POST",
        "/internal/mcp-review/update-correction",
        {
          headers: devUser,
          json: { correlationId: "c", correctedQuestion: "q", correctedAnswer: "a", publish: false },
        },
      ],
      ["POST", "/internal/preview/create-project", { headers: dashboard, json: {} }],
      ["GET", "/migration-tests", {}],
      ["GET", "/migration-tests/smart-route-handler", {}],
    ];
    for (const [method, path, options] of probes) {
      answered.length = 0;
      const response = await request(provider, `/api/v1${path}`, { ...options, method });
      expect(
        [method, path, response.status, answered.length === 1 && answered[0] !== null],
        `${method} ${path}`,
      ).toEqual([method, path, expect.any(Number), true]);
      expect([405, 500, 501]).not.toContain(response.status);
    }
    expect(provider.unexpected).toEqual([]);
  });
});
