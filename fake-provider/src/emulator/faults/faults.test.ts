import { serve } from "@hono/node-server";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { manualClock, seededRandom } from "@authsim/sdk/runtime";
import { createFakeProvider } from "../../app.ts";
import { matchesPath } from "./rules.ts";

const headers = { "x-stack-access-type": "client", "x-stack-project-id": dev.id };
const setup = () => createFakeProvider({ clock: manualClock(Date.UTC(2026, 0, 1)), ids: seededRandom("faults") });
const get = (p: ReturnType<typeof setup>, path: string, extra: Record<string, string> = {}) =>
  p.fetch(`http://x/api/v1${path}`, { headers: { ...headers, ...extra } });

describe("fault rules", () => {
  it("are none until one is added, and none again once the last is spent or cleared", async () => {
    const p = setup();
    expect(p.faults.none()).toBe(true);
    p.faults.add({ path: "/projects/current", action: { type: "status", status: 503 } });
    expect(p.faults.none()).toBe(false);
    expect((await get(p, "/projects/current")).status).toBe(503);
    expect(p.faults.none()).toBe(true);
    expect((await get(p, "/projects/current")).status).toBe(200);
    p.faults.add({ path: "/projects/current", action: { type: "status", status: 503 }, times: 3 });
    p.faults.clear();
    expect(p.faults.none()).toBe(true);
    expect((await get(p, "/projects/current")).status).toBe(200);
  });

  it("answers a forced 429 with Retry-After once, then lets requests through", async () => {
    const p = setup();
    p.faults.add({
      method: "GET",
      path: "/projects/current",
      action: { type: "status", status: 429, headers: { "retry-after": "2" }, body: "slow down" },
    });
    const forced = await get(p, "/projects/current");
    expect(forced.status).toBe(429);
    expect(forced.headers.get("retry-after")).toBe("2");
    expect(forced.headers.get("access-control-allow-origin")).toBe("*");
    expect(await forced.text()).toBe("slow down");
    expect((await get(p, "/projects/current")).status).toBe(200);
    expect(p.faults.list()).toEqual([]);
  });

  it("forces a known error exactly as a real one, override-error-status included", async () => {
    const p = setup();
    p.faults.add({
      path: "/projects/current",
      times: 2,
      action: { type: "known-error", code: "PROJECT_NOT_FOUND", details: { project_id: dev.id } },
    });
    const plain = await get(p, "/projects/current");
    expect(plain.status).toBe(404);
    expect(plain.headers.get("x-stack-known-error")).toBe("PROJECT_NOT_FOUND");
    expect(plain.headers.get("x-hexclave-known-error")).toBeNull();
    expect(await plain.json()).toMatchObject({ code: "PROJECT_NOT_FOUND", details: { project_id: dev.id } });
    const overridden = await get(p, "/projects/current", { "x-stack-override-error-status": "true" });
    expect(overridden.status).toBe(200);
    expect(overridden.headers.get("x-stack-actual-status")).toBe("404");
    expect((await get(p, "/projects/current")).status).toBe(200);
  });

  it("matches a rule's path under /api/latest as under /api/v1, answering in the request's header family", async () => {
    const p = setup();
    p.faults.add({
      path: "/projects/current",
      times: 1,
      action: { type: "known-error", code: "PROJECT_NOT_FOUND", details: { project_id: dev.id } },
    });
    const forced = await p.fetch("http://x/api/latest/projects/current", {
      headers: { "x-hexclave-access-type": "client", "x-hexclave-project-id": dev.id },
    });
    expect(forced.status).toBe(404);
    expect(forced.headers.get("x-hexclave-known-error")).toBe("PROJECT_NOT_FOUND");
    expect(forced.headers.get("x-stack-known-error")).toBeNull();
    expect(p.requestLog.list().find((e) => e.path === "/api/latest/projects/current")).toMatchObject({
      status: 404,
      knownError: "PROJECT_NOT_FOUND",
    });
  });

  it("keeps a rule with times: null until it is removed", async () => {
    const p = setup();
    const rule = p.faults.add({ path: "/projects/current", times: null, action: { type: "status", status: 503 } });
    for (let i = 0; i < 3; i++) expect((await get(p, "/projects/current")).status).toBe(503);
    expect(p.faults.list()[0]?.hits).toBe(3);
    expect(p.faults.remove(rule.id)).toBe(true);
    expect((await get(p, "/projects/current")).status).toBe(200);
  });

  it("matches method, project and path patterns", async () => {
    const p = setup();
    p.faults.add({ method: "POST", path: "/projects/current", times: null, action: { type: "status", status: 503 } });
    p.faults.add({ path: "/projects/*", projectId: "internal", times: null, action: { type: "status", status: 502 } });
    expect((await get(p, "/projects/current")).status).toBe(200);
    expect((await get(p, "/projects/current", { "x-stack-project-id": "internal" })).status).toBe(502);
    expect(matchesPath("/users/:id", "/users/abc")).toBe(true);
    expect(matchesPath("/users/*", "/users/abc/def")).toBe(false);
    expect(matchesPath("/users/**", "/users/abc/def")).toBe(true);
    expect(matchesPath("/", "/")).toBe(true);
  });

  it("drops the connection: the in-process fetch rejects like a network failure", async () => {
    const p = setup();
    p.faults.add({ path: "/projects/current", action: { type: "drop" } });
    await expect(get(p, "/projects/current")).rejects.toBeInstanceOf(TypeError);
    expect((await get(p, "/projects/current")).status).toBe(200);
  });

  it("drops the connection over a real port too", async () => {
    const p = setup();
    const server = serve({ fetch: p.app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    const { port } = server.address() as AddressInfo;
    try {
      p.faults.add({ path: "/projects/current", action: { type: "drop" } });
      await expect(fetch(`http://127.0.0.1:${port}/api/v1/projects/current`, { headers })).rejects.toThrow();
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/projects/current`, { headers })).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("fires with the given probability from the seeded random source", async () => {
    const p = setup();
    p.faults.add({ path: "/projects/current", times: null, probability: 0.5, action: { type: "status", status: 503 } });
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await get(p, "/projects/current")).status);
    const failed = statuses.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
  });

  it("adds latency, then lets the request through", async () => {
    const p = setup();
    p.faults.add({ path: "/projects/current", action: { type: "latency", millis: 5 } });
    expect((await get(p, "/projects/current")).status).toBe(200);
    expect(p.faults.list()).toEqual([]);
  });

  it("is managed over the control endpoints, validates rules, and is cleared by reset", async () => {
    const p = setup();
    const created = await p.fetch("http://x/__emulator/faults", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        path: "/projects/current",
        times: 3,
        action: { type: "status", status: 508, body: "INFINITE_LOOP_DETECTED" },
      }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(
      ((await (await p.fetch("http://x/__emulator/faults")).json()) as { items: { id: string }[] }).items.map(
        (r) => r.id,
      ),
    ).toEqual([id]);
    const invalid = await p.fetch("http://x/__emulator/faults", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ path: "/x", action: { type: "known-error", code: "NOT_A_CODE" } }),
    });
    expect(invalid.status).toBe(400);
    expect((await p.fetch(`http://x/__emulator/faults/${id}`, { method: "DELETE" })).status).toBe(200);
    expect((await p.fetch(`http://x/__emulator/faults/${id}`, { method: "DELETE" })).status).toBe(404);
    p.faults.add({ path: "/**", times: null, action: { type: "status", status: 503 } });
    p.reset();
    expect(p.faults.list()).toEqual([]);
  });
});
