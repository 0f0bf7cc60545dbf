import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/**
 * `z.unknown()` in the contract stands only where the real service takes or gives any JSON there. Each place is listed
 * here with why, per area file; a new one fails this test until it is typed or listed.
 */
const anyJsonWhere: Readonly<Record<string, { count: number; why: string }>> = {
  "admin-misc.ts": {
    count: 4,
    why: "AI chat messages and their content: the model's messages, stored and replayed as they came",
  },
  "ai-conversations.ts": {
    count: 2,
    why: "a saved conversation's message content: the assistant's messages, stored as given",
  },
  "ai-proxy.ts": { count: 2, why: "the AI proxy's request and answer: the model provider's own JSON, passed through" },
  "analytics.ts": { count: 3, why: "a query's params and result rows, and an event's data: the caller's JSON" },
  "common.ts": { count: 1, why: "jsonValue: metadata (client, read-only, server), any JSON by definition" },
  "emails.ts": {
    count: 5,
    why: "template variables (3), a sent email's error and its send attempt errors (2): whatever the caller or the mail server gave",
  },
  "feature-requests.ts": {
    count: 1,
    why: "a feature request's custom input values: the board's custom fields, any JSON",
  },
  "integrations.ts": {
    count: 2,
    why: "the integrations' OpenID Connect provider's requests and answers: forms, JSON, redirects and pages its own routing reads",
  },
  "managed-email.ts": { count: 1, why: "the Resend webhook body, checked by its Svix signature before it is read" },
  "oauth.ts": { count: 1, why: "the GET OAuth callback's body: the real service ignores it" },
  "passkeys.ts": { count: 2, why: "WebAuthn clientExtensionResults: whatever extensions the browser reports" },
  "payment-methods.ts": {
    count: 1,
    why: "method preference updates: checked as one record by a refinement, as upstream words it",
  },
  "payments.ts": {
    count: 9,
    why: "product metadata (6), price and included-item extras (2), and the Stripe webhook body, checked by its signature",
  },
  "project-admin.ts": { count: 1, why: "onboarding_state: the dashboard's own JSON, stored as given" },
  "session-replays.ts": { count: 3, why: "recorded replay events: the recorder's JSON, stored and served as given" },
  "teams.ts": { count: 1, why: "DELETE /teams/{id}: upstream accepts and ignores any body" },
};

describe("z.unknown() in the contract", () => {
  it("stands only where the real service takes any JSON, each place listed", () => {
    const dir = new URL("./areas/", import.meta.url);
    const counts: Record<string, number> = {};
    for (const file of readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const count = readFileSync(new URL(file, dir), "utf8").split("z.unknown()").length - 1;
      if (count > 0) counts[file] = count;
    }
    expect(counts).toEqual(Object.fromEntries(Object.entries(anyJsonWhere).map(([file, { count }]) => [file, count])));
  });
});
