import { describe, expect, it } from "vitest";
import type { FakeProvider } from "./app.ts";
import { api, client, expectJson, newProvider, server, signUp, START_MILLIS } from "./test-support/api.ts";

/**
 * Per-test isolation in process (README "Isolating tests"): fork() is an independent copy of the current state, and a
 * snapshot restores a small state well under a millisecond.
 */
const userCount = async (p: FakeProvider) =>
  (await expectJson<{ items: unknown[] }>(await api(p, "/users", { headers: server() }))).items.length;

describe("isolation", () => {
  it("fork() copies the state and the clock offset; afterwards neither sees the other's changes", async () => {
    const parent = newProvider();
    const ada = await signUp(parent);
    parent.clock.advance(60_000);
    parent.faults.add({ path: "/**", times: null, action: { type: "status", status: 503 } });
    const child = parent.fork();
    expect(child.clock.now()).toBe(START_MILLIS + 60_000);
    // Faults and the request log are the parent's own; the stored state (tokens' signing keys included) is copied.
    expect(child.faults.list()).toEqual([]);
    expect(child.requestLog.list()).toEqual([]);
    parent.faults.clear();
    const me = await api(child, "/users/me", { headers: client({ accessToken: ada.access_token }) });
    expect((await expectJson<{ primary_email: string }>(me)).primary_email).toBe(ada.email);

    await signUp(child);
    expect([await userCount(parent), await userCount(child)]).toEqual([1, 2]);
    await api(parent, `/users/${ada.user_id}`, { method: "DELETE", headers: server() });
    expect([await userCount(parent), await userCount(child)]).toEqual([0, 2]);
    child.clock.advance(1_000);
    expect(parent.clock.now()).toBe(START_MILLIS + 60_000);
    // A fork resets to the same seed as its parent.
    child.reset();
    expect(await userCount(child)).toBe(0);
    expect(child.clock.now()).toBe(START_MILLIS);
  });

  it("restores a small state well under a millisecond (the pattern: snapshot in beforeAll, restore in beforeEach)", async () => {
    const p = newProvider();
    for (let i = 0; i < 3; i++) await signUp(p);
    const saved = p.snapshot();
    await signUp(p);
    const rounds = 200;
    let total = 0;
    for (let i = 0; i < rounds; i++) {
      const started = performance.now();
      p.restore(saved);
      total += performance.now() - started;
    }
    expect(await userCount(p)).toBe(3);
    // About 0.3 ms here; the bound leaves room for a loaded CI machine.
    expect(total / rounds).toBeLessThan(2);
  });
});
