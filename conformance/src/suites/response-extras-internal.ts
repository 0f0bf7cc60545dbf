import { createHmac } from "node:crypto";
import { it } from "vitest";
import type { InProcessTarget } from "../targets.ts";
import { providerNow } from "./payments-support.ts";
import { call, internalTargetOf, signUp } from "./response-extras-support.ts";
import { uniqueTag } from "./support.ts";

/**
 * Successful calls of the routes issue 27 and the external database sync added (response-extras.ts has the older
 * ones): the real service's internal and integration routes, several served to the internal project only.
 */
export function internalExtraCalls(getTarget: () => InProcessTarget): void {
  it("serves issue 27's routes: migration tests, the timing of a query, a leaked key, a Resend event, the init report, the AI proxy", async () => {
    const target = getTarget();
    await call(target, "/migration-tests");
    await call(target, "/migration-tests/smart-route-handler?queryParamNew=x");
    const { query_id } = await call<{ query_id: string }>(target, "/internal/analytics/query", {
      access: "admin",
      json: { query: "SELECT 1 AS one" },
    });
    await call(target, "/internal/analytics/query/timing", { access: "server", json: { query_id } });
    const user = await signUp(target);
    const key = await call<{ value: string }>(target, "/user-api-keys", {
      access: "client",
      accessToken: user.access_token,
      json: { user_id: "me", description: "leaked", expires_at_millis: null },
    });
    await call(target, "/integrations/credential-scanning/revoke", { json: { api_key: key.value } });
    // Svix's signature with the emulator's fixed development secret (fake-provider ops/emails/resend-webhooks.ts).
    const event = JSON.stringify({ type: "email.sent", data: {} });
    const timestamp = String(Math.floor((await providerNow(target)) / 1000));
    const secret = Buffer.from("YXV0aHNpbS1yZXNlbmQtd2ViaG9vay1zZWNyZXQ=", "base64");
    const signature = `v1,${createHmac("sha256", secret).update(`msg_1.${timestamp}.${event}`).digest("base64")}`;
    await call(target, "/integrations/resend/webhooks", {
      method: "POST",
      rawBody: event,
      headers: {
        "content-type": "application/json",
        "svix-id": "msg_1",
        "svix-timestamp": timestamp,
        "svix-signature": signature,
      },
    });
    await call(target, "/internal/init-script-callback", {
      json: { success: true, options: {}, args: [], isNonInteractive: true, timestamp: "2026-01-01T00:00:00.000Z" },
    });
    await call(target, "/integrations/ai-proxy/v1/models");
    await call(target, "/integrations/ai-proxy/v1/messages", { json: { messages: [{ role: "user", content: "hi" }] } });
  });

  it("serves the dashboard's feature board, MCP review and saved AI conversations to an internal-project user", async () => {
    const target = getTarget();
    const internal = internalTargetOf(target);
    const me = { access: "client" as const, accessToken: (await signUp(internal)).access_token };
    const post = await call<{ id: string }>(internal, "/internal/feature-requests", {
      ...me,
      json: { title: uniqueTag("feature") },
    });
    await call(internal, `/internal/feature-requests/${post.id}/upvote`, { ...me, json: {} });
    await call(internal, "/internal/feature-requests", me);
    await call(internal, "/internal/mcp-review/add-manual", {
      ...me,
      json: { question: "Q?", answer: "A.", publish: false },
    });
    // No route lists the log (upstream's reviewers read it from its database): the entry's id is read from the state.
    const correlationId = [...target.provider.store.read.mcpCallLog.values()].at(-1)!.correlationId;
    await call(internal, "/internal/mcp-review/update-correction", {
      ...me,
      json: { correlationId, correctedQuestion: "q", correctedAnswer: "a", publish: true },
    });
    await call(internal, "/internal/mcp-review/mark-reviewed", { ...me, json: { correlationId } });
    await call(internal, "/internal/mcp-review/delete", { ...me, json: { correlationId } });
    const conversation = await call<{ id: string }>(internal, "/internal/ai-conversations", {
      ...me,
      json: { title: "Help", projectId: target.projectId, messages: [{ role: "user", content: "hi" }] },
    });
    await call(internal, `/internal/ai-conversations?projectId=${target.projectId}`, me);
    await call(internal, `/internal/ai-conversations/${conversation.id}`, me);
    await call(internal, `/internal/ai-conversations/${conversation.id}`, {
      ...me,
      method: "PATCH",
      json: { title: "Renamed" },
    });
    await call(internal, `/internal/ai-conversations/${conversation.id}/messages`, {
      ...me,
      method: "PUT",
      json: { messages: [] },
    });
    await call(internal, `/internal/ai-conversations/${conversation.id}`, { ...me, method: "DELETE" });
  });

  it("reads and sets the external database sync's fusebox, runs its cron passes and reads its status", async () => {
    const target = getTarget();
    const internal = internalTargetOf(target);
    const fusebox = "/internal/external-db-sync/fusebox";
    await call(internal, fusebox, { access: "admin" });
    await call(internal, fusebox, { access: "admin", json: { sequencer_enabled: true, poller_enabled: true } });
    // The cron passes take the development secret (the real service's local value), the engine its signature bypass.
    const cron = { authorization: "Bearer mock_cron_secret" };
    await call(target, "/internal/external-db-sync/sequencer", { headers: cron });
    await call(target, "/internal/external-db-sync/poller", { headers: cron });
    await call(target, "/internal/external-db-sync/sync-engine", {
      headers: { "upstash-signature": "test-bypass" },
      json: { tenancyId: target.projectId },
    });
    await call(internal, "/internal/external-db-sync/status", { access: "admin" });
  });
}
