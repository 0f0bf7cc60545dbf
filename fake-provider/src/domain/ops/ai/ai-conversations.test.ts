import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  api,
  client,
  DEV,
  expectJson,
  expectKnownError,
  INTERNAL,
  newProvider,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";

/** The assistant's saved conversations (/internal/ai-conversations): conversation rows and message rows, per owner. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const BASE = "/internal/ai-conversations";
type Summary = { id: string; title: string; projectId: string; updatedAt: string };

async function dashboardUser() {
  const user = await signUp(provider, { project: INTERNAL });
  return client({ accessToken: user.access_token }, INTERNAL);
}
const create = async (headers: ReturnType<typeof client>, title: string, messages: unknown[] = []) =>
  expectJson<{ id: string; title: string }>(
    await api(provider, BASE, { headers, json: { title, projectId: DEV.id, messages } }),
  );
const list = async (headers: ReturnType<typeof client>) =>
  (await expectJson<{ conversations: Summary[] }>(await api(provider, `${BASE}?projectId=${DEV.id}`, { headers })))
    .conversations;

describe("saved AI conversations", () => {
  it("creates with messages, reads them in order, renames, replaces the messages and deletes", async () => {
    const me = await dashboardUser();
    const { id, title } = await create(me, "Setup help", [
      { role: "user", content: "How?" },
      { role: "assistant", content: [{ type: "text", text: "Like so." }] },
    ]);
    expect(title).toBe("Setup help");
    const read = await expectJson<{ messages: { id: string; role: string; content: unknown }[] }>(
      await api(provider, `${BASE}/${id}`, { headers: me }),
    );
    expect(read).toMatchObject({ id, title, projectId: DEV.id });
    expect(read.messages.map((m) => [m.role, m.content])).toEqual([
      ["user", "How?"],
      ["assistant", [{ type: "text", text: "Like so." }]],
    ]);

    provider.clock.advance(1_000);
    expect(
      await expectJson(
        await api(provider, `${BASE}/${id}`, { headers: me, method: "PATCH", json: { title: "Renamed" } }),
      ),
    ).toEqual({});
    expect(
      await expectJson(
        await api(provider, `${BASE}/${id}/messages`, {
          headers: me,
          method: "PUT",
          json: { messages: [{ role: "user", content: null }] },
        }),
      ),
    ).toEqual({});
    const after = await expectJson<{ title: string; messages: { content: unknown }[] }>(
      await api(provider, `${BASE}/${id}`, { headers: me }),
    );
    expect(after.title).toBe("Renamed");
    expect(after.messages.map((m) => m.content)).toEqual([null]);
    expect(provider.store.read.aiMessages.size).toBe(1);

    expect(await expectJson(await api(provider, `${BASE}/${id}`, { headers: me, method: "DELETE" }))).toEqual({});
    expect(await list(me)).toEqual([]);
    expect(provider.store.read.aiMessages.size).toBe(0);
  });

  it("lists the owner's conversations of one project, most recently updated first", async () => {
    const me = await dashboardUser();
    const older = await create(me, "older");
    provider.clock.advance(1_000);
    const newer = await create(me, "newer");
    await create(await dashboardUser(), "someone else's");
    expect((await list(me)).map((c) => c.id)).toEqual([newer.id, older.id]);
    provider.clock.advance(1_000);
    await expectJson(
      await api(provider, `${BASE}/${older.id}/messages`, { headers: me, method: "PUT", json: { messages: [] } }),
    );
    const listed = await list(me);
    expect(listed.map((c) => c.id)).toEqual([older.id, newer.id]);
    expect(new Date(listed[0]!.updatedAt).toISOString()).toBe(listed[0]!.updatedAt);
    expect(await expectJson(await api(provider, `${BASE}?projectId=other`, { headers: me }))).toEqual({
      conversations: [],
    });
  });

  it("hides another user's conversation, and an id that is none, behind the plain 404", async () => {
    const mine = await create(await dashboardUser(), "mine");
    const other = await dashboardUser();
    for (const id of [mine.id, "not-a-conversation"]) {
      for (const [method, path, json] of [
        ["GET", "", undefined],
        ["PATCH", "", { title: "x" }],
        ["DELETE", "", undefined],
        ["PUT", "/messages", { messages: [] }],
      ] as const) {
        const response = await api(provider, `${BASE}/${id}${path}`, {
          headers: other,
          method,
          ...(json ? { json } : {}),
        });
        expect([response.status, await response.text()]).toEqual([404, "Conversation not found"]);
      }
    }
  });

  it("refuses malformed input and a project that does not exist, keeping nothing", async () => {
    const me = await dashboardUser();
    for (const json of [
      {},
      { title: "t", projectId: DEV.id },
      { title: "t", projectId: DEV.id, messages: [{ role: "system", content: "x" }] },
      { title: "t", projectId: DEV.id, messages: [{ role: "user" }] },
      { title: "t", projectId: DEV.id, messages: [], extra: 1 },
    ]) {
      await expectKnownError(await api(provider, BASE, { headers: me, json }), "SCHEMA_ERROR", 400);
    }
    const missing = await api(provider, BASE, {
      headers: me,
      json: { title: "t", projectId: "no-such-project", messages: [{ role: "user", content: "x" }] },
    });
    expect(missing.status).toBe(404);
    await expectKnownError(await api(provider, BASE, { headers: me }), "SCHEMA_ERROR", 400);
    const body = await expectKnownError(
      await api(provider, `${BASE}?projectId=${DEV.id}`, { headers: client() }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain("auth.user must be defined");
    expect(provider.store.read.aiConversations.size + provider.store.read.aiMessages.size).toBe(0);
  });
});
