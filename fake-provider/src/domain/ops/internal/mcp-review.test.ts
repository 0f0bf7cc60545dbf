import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import type { McpCallLogRecord } from "../../store/service-records.ts";

/** The MCP call log's review (/internal/mcp-review/*): the log kept as data, any signed-in user (development rules). */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const review = (path: string) => `/internal/mcp-review/${path}`;
const entries = (): McpCallLogRecord[] => [...provider.store.read.mcpCallLog.values()];

async function reviewer() {
  const user = await signUp(provider);
  return { headers: client({ accessToken: user.access_token }), email: user.email };
}

describe("the MCP review routes", () => {
  it("adds a reviewed manual entry, corrects it keeping the first review, marks it reviewed again and deletes it", async () => {
    const alice = await reviewer();
    expect(
      await expectJson(
        await api(provider, review("add-manual"), {
          headers: alice.headers,
          json: { question: "Q?", answer: "A.", publish: true },
        }),
      ),
    ).toEqual({ success: true });
    const [added] = entries();
    expect(added).toMatchObject({
      toolName: "manual",
      question: "Q?",
      humanCorrectedAnswer: "A.",
      humanReviewedBy: alice.email,
      publishedToQa: true,
    });
    const { correlationId } = added!;

    const bob = await reviewer();
    await expectJson(
      await api(provider, review("update-correction"), {
        headers: bob.headers,
        json: { correlationId, correctedQuestion: "Q2?", correctedAnswer: "A2.", publish: false },
      }),
    );
    expect(entries()[0]).toMatchObject({
      humanCorrectedQuestion: "Q2?",
      humanReviewedBy: alice.email,
      publishedToQa: false,
      publishedAtMillis: null,
    });

    await expectJson(await api(provider, review("mark-reviewed"), { headers: bob.headers, json: { correlationId } }));
    expect(entries()[0]!.humanReviewedBy).toBe(bob.email);

    await expectJson(await api(provider, review("delete"), { headers: bob.headers, json: { correlationId } }));
    expect(entries()).toEqual([]);
  });

  it("refuses an unknown correlation id with a plain 404 naming it", async () => {
    const { headers } = await reviewer();
    for (const path of ["delete", "mark-reviewed"]) {
      const response = await api(provider, review(path), { headers, json: { correlationId: "nope" } });
      expect(response.status).toBe(404);
      expect(await response.text()).toBe("Call log not found for correlationId: nope");
    }
  });

  it("needs a user by the schema, and refuses malformed bodies, keeping nothing", async () => {
    const body = await expectKnownError(
      await api(provider, review("add-manual"), {
        headers: client(),
        json: { question: "q", answer: "a", publish: false },
      }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain("auth.user must be defined");
    const { headers } = await reviewer();
    for (const json of [
      {},
      { question: "q", answer: "a" },
      { question: "q", answer: "a", publish: "yes" },
      { question: "q", answer: "a", publish: true, extra: 1 },
    ]) {
      await expectKnownError(await api(provider, review("add-manual"), { headers, json }), "SCHEMA_ERROR", 400);
    }
    await expectKnownError(
      await api(provider, review("update-correction"), { headers, json: { correlationId: "x" } }),
      "SCHEMA_ERROR",
      400,
    );
    expect(entries()).toEqual([]);
  });
});
