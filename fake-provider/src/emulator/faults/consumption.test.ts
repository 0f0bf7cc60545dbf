import { describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider, type FakeProvider } from "../../app.ts";
import type { FaultRule } from "./rules.ts";

/**
 * When a fault rule is spent: only when it acts on a request. The first answering rule (status, known error, drop)
 * ends the walk, so a later matching rule keeps its count; a latency rule before it waits, stacks with the answer and
 * counts as fired. The random-rule-list property against a model is in consumption.property.test.ts.
 */
const headers = { "x-stack-access-type": "client", "x-stack-project-id": dev.id };
const setup = () =>
  createFakeProvider({ clock: manualClock(Date.UTC(2026, 0, 1)), ids: seededRandom("fault-consumption") });
const get = (p: FakeProvider, path = "/projects/current") => p.fetch(`http://x/api/v1${path}`, { headers });
const counts = (rules: readonly Pick<FaultRule, "id" | "remaining" | "hits">[]) =>
  rules.map(({ id, remaining, hits }) => ({ id, remaining, hits }));

async function control(p: FakeProvider, method: string, path: string, body?: unknown): Promise<Response> {
  return p.fetch(`http://x/__emulator${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  });
}

const listed = async (p: FakeProvider) =>
  counts(((await (await control(p, "GET", "/faults")).json()) as { items: FaultRule[] }).items);

describe("fault rules are spent only when they act", () => {
  it("two once rules on the same path answer the first and the second request in turn", async () => {
    const p = setup();
    const first = p.faults.add({ path: "/projects/current", action: { type: "status", status: 503, body: "first" } });
    const second = p.faults.add({
      path: "/projects/current",
      action: { type: "known-error", code: "PROJECT_NOT_FOUND", details: { project_id: dev.id } },
    });

    const one = await get(p);
    expect([one.status, await one.text()]).toEqual([503, "first"]);
    // The second rule was not reached: still one left, never hit.
    expect(counts(p.faults.list())).toEqual([{ id: second.id, remaining: 1, hits: 0 }]);

    const two = await get(p);
    expect(two.status).toBe(404);
    expect(two.headers.get("x-stack-known-error")).toBe("PROJECT_NOT_FOUND");
    expect((await get(p)).status).toBe(200);
    expect(p.faults.list()).toEqual([]);
    expect(first.id).not.toBe(second.id);
  });

  it("a drop does not spend the rule after it", async () => {
    const p = setup();
    p.faults.add({ path: "/projects/*", action: { type: "drop" } });
    p.faults.add({ path: "/**", action: { type: "status", status: 429, headers: { "retry-after": "1" } } });
    await expect(get(p)).rejects.toBeInstanceOf(TypeError);
    expect((await get(p)).status).toBe(429);
    expect((await get(p)).status).toBe(200);
  });

  it("stacks latency with the answering rule after it, and counts the latency rule as fired", async () => {
    const p = setup();
    const slow = p.faults.add({ path: "/projects/current", times: 2, action: { type: "latency", millis: 30 } });
    const limited = p.faults.add({
      path: "/projects/current",
      action: { type: "status", status: 429, headers: { "retry-after": "1" } },
    });

    expect((await get(p)).status).toBe(429);
    const entry = p.requestLog.list().at(-1)!;
    expect(entry.why.filter((w) => w.startsWith("fault rule "))).toHaveLength(2);
    // The request log's duration is real elapsed time: the 429 waited for the latency first.
    expect(entry.durationMillis).toBeGreaterThanOrEqual(25);
    expect(counts(p.faults.list())).toEqual([{ id: slow.id, remaining: 1, hits: 1 }]);

    // The answer is spent; the latency still applies once more, then lets the request through.
    expect((await get(p)).status).toBe(200);
    expect(p.faults.list()).toEqual([]);
    expect(p.requestLog.list().at(-1)!.why).toEqual([expect.stringContaining(`fault rule ${slow.id}`)]);
    expect(limited.id).not.toBe(slow.id);
  });

  it("a latency rule added after the answering rule is not reached, so it keeps its count", async () => {
    const p = setup();
    p.faults.add({ path: "/projects/current", action: { type: "status", status: 503 } });
    const slow = p.faults.add({ path: "/projects/current", action: { type: "latency", millis: 1 } });
    expect((await get(p)).status).toBe(503);
    expect(counts(p.faults.list())).toEqual([{ id: slow.id, remaining: 1, hits: 0 }]);
    expect((await get(p)).status).toBe(200);
    expect(p.requestLog.list().at(-1)!.why[0]).toContain(`fault rule ${slow.id}`);
    expect(p.faults.list()).toEqual([]);
  });

  it("a rule whose chance did not come up is not spent, and lets a later rule answer", async () => {
    const p = setup();
    const never = p.faults.add({ path: "/projects/current", probability: 0, action: { type: "status", status: 500 } });
    p.faults.add({ path: "/projects/current", action: { type: "status", status: 502 } });
    expect((await get(p)).status).toBe(502);
    expect(counts(p.faults.list())).toEqual([{ id: never.id, remaining: 1, hits: 0 }]);
  });

  it("the control endpoints (and so the dashboard's faults panel) show the remaining counts and hits", async () => {
    const p = setup();
    const add = async (body: unknown) => ((await (await control(p, "POST", "/faults", body)).json()) as FaultRule).id;
    const slow = await add({ path: "/projects/current", times: 3, action: { type: "latency", millis: 0 } });
    const once = await add({ path: "/projects/current", action: { type: "status", status: 503 } });
    const twice = await add({ path: "/projects/current", times: 2, action: { type: "status", status: 429 } });
    const forever = await add({ path: "/projects/current", times: null, action: { type: "status", status: 500 } });

    expect((await get(p)).status).toBe(503);
    expect(await listed(p)).toEqual([
      { id: slow, remaining: 2, hits: 1 },
      { id: twice, remaining: 2, hits: 0 },
      { id: forever, remaining: null, hits: 0 },
    ]);
    expect((await get(p)).status).toBe(429);
    expect((await get(p)).status).toBe(429);
    expect((await get(p)).status).toBe(500);
    expect(await listed(p)).toEqual([{ id: forever, remaining: null, hits: 1 }]);
    expect(once).not.toBe(twice);
  });
});
