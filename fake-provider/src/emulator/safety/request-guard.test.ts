import { describe, expect, it } from "vitest";
import { DEV, newProvider, type TestProvider } from "../../test-support/api.ts";
import { hostAllowed, hostName } from "./request-guard.ts";

/**
 * Issue 14, findings 3–5, as the dev server runs (a provider with `requestGuard`): cross-site requests to the control
 * plane, DNS rebinding (a foreign Host), and a foreign page using the published dev keys. Each request here is one a
 * hostile web page can make from the developer's browser; each must be refused and change nothing.
 */

const guarded = (extraHosts: string[] = []) => newProvider({ requestGuard: { extraHosts } });
const HOST = "127.0.0.1:8102";
const ATTACKER = "http://attacker.example";

function send(
  provider: TestProvider,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return provider.app.request(`http://${HOST}${path}`, {
    method: init.method ?? "GET",
    headers: { host: HOST, ...init.headers },
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
}

const serverKeyHeaders = {
  "x-stack-access-type": "server",
  "x-stack-project-id": DEV.id,
  "x-stack-secret-server-key": DEV.keys.secret_server_key,
};

describe("the control plane refuses cross-site requests (finding 3)", () => {
  const stateChanging: [string, string, string][] = [
    ["POST", "/__emulator/faults", JSON.stringify({ path: "/users/me", action: { type: "status", status: 500 } })],
    ["POST", "/__emulator/reset", ""],
    [
      "POST",
      "/__emulator/restore",
      JSON.stringify({ store: { version: 1, tables: {} }, clock: { offsetMillis: 0, frozenAtMillis: null } }),
    ],
    ["POST", "/__emulator/projects", JSON.stringify({ display_name: "evil" })],
    ["POST", "/__emulator/fixture", JSON.stringify({ version: 1, projects: [] })],
    ["POST", "/__emulator/clock/advance", JSON.stringify({ millis: 1_000_000 })],
    ["POST", "/__emulator/clock/freeze", JSON.stringify({ at_millis: 0 })],
    ["DELETE", "/__emulator/outbox", ""],
  ];

  it.each(stateChanging)(
    "%s %s from a foreign page (text/plain, no-cors) is refused and changes nothing",
    async (method, path, body) => {
      const provider = guarded();
      const before = JSON.stringify(provider.snapshot());
      const faultsBefore = provider.faults.list().length;
      const response = await send(provider, path, {
        method,
        headers: { origin: ATTACKER, "content-type": "text/plain" },
        body,
      });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("attacker.example");
      expect(JSON.stringify(provider.snapshot())).toBe(before);
      expect(provider.faults.list()).toHaveLength(faultsBefore);
    },
  );

  it.each(stateChanging)("%s %s as text/plain with no Origin is refused with 415", async (method, path, body) => {
    const provider = guarded();
    const before = JSON.stringify(provider.snapshot());
    const response = await send(provider, path, { method, headers: { "content-type": "text/plain" }, body });
    expect(response.status).toBe(415);
    expect(await response.text()).toContain("application/json");
    expect(JSON.stringify(provider.snapshot())).toBe(before);
  });

  it("the emulator's own pages may change state as JSON", async () => {
    const provider = guarded();
    const body = JSON.stringify({ path: "/users/me", action: { type: "status", status: 503 } });
    const response = await send(provider, "/__emulator/faults", {
      method: "POST",
      headers: { origin: `http://${HOST}`, "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(201);
    expect(provider.faults.list()).toHaveLength(1);
  });

  it("the mock identity provider's form may be posted from its own page, not from another", async () => {
    const provider = guarded();
    const form = { "content-type": "application/x-www-form-urlencoded" };
    const own = await send(provider, "/__emulator/oauth/authorize/github?state=nope", {
      method: "POST",
      headers: { ...form, origin: `http://${HOST}` },
      body: "account_id=1",
    });
    expect(own.status).not.toBe(403);
    expect(own.status).not.toBe(415);
    const foreign = await send(provider, "/__emulator/oauth/authorize/github?state=nope", {
      method: "POST",
      headers: { ...form, origin: ATTACKER },
      body: "account_id=1",
    });
    expect(foreign.status).toBe(403);
  });
});

describe("requests must name this machine (finding 4, DNS rebinding)", () => {
  it("a snapshot requested under a foreign Host is refused", async () => {
    const provider = guarded();
    const response = await provider.app.request("http://attacker.example:8102/__emulator/snapshot", {
      headers: { host: "attacker.example:8102" },
    });
    expect(response.status).toBe(403);
    const text = await response.text();
    expect(text).toContain("--allow-host");
    expect(text).not.toContain("pbkdf2");
  });

  it("the API under a foreign Host is refused too (the dev keys are public)", async () => {
    const provider = guarded();
    const response = await provider.app.request("http://attacker.example:8102/api/v1/users", {
      headers: { host: "attacker.example:8102", ...serverKeyHeaders },
    });
    expect(response.status).toBe(403);
  });

  it.each(["localhost:8102", "127.0.0.1:8102", "[::1]:8102", "app.localhost:8102", "LOCALHOST"])(
    "%s is this machine",
    async (host) => {
      const provider = guarded();
      const response = await provider.app.request(`http://${host}/__emulator/clock`, { headers: { host } });
      expect(response.status).toBe(200);
    },
  );

  it("--allow-host adds a name", async () => {
    const provider = guarded(["host.docker.internal"]);
    const response = await provider.app.request("http://host.docker.internal:8102/__emulator/clock", {
      headers: { host: "host.docker.internal:8102" },
    });
    expect(response.status).toBe(200);
  });

  it("host names are compared without port and case", () => {
    expect(hostName("[::1]:8102")).toBe("[::1]");
    expect(hostName("LocalHost:1")).toBe("localhost");
    expect(hostAllowed("127.0.0.5", { extraHosts: [] })).toBe(true);
    expect(hostAllowed("localhost.attacker.example", { extraHosts: [] })).toBe(false);
    expect(hostAllowed("attacker.localhost.example", { extraHosts: [] })).toBe(false);
  });
});

describe("secret keys from foreign pages (finding 5)", () => {
  it("the preflight still allows any origin, as the real service does", async () => {
    const provider = guarded();
    const response = await send(provider, "/api/v1/users", {
      method: "OPTIONS",
      headers: { origin: ATTACKER, "access-control-request-headers": "x-stack-secret-server-key" },
    });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("a foreign page cannot list users with the public dev server key", async () => {
    const provider = guarded();
    const response = await send(provider, "/api/v1/users", { headers: { origin: ATTACKER, ...serverKeyHeaders } });
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain("@");
  });

  it("a page on this machine and a server (no Origin) may", async () => {
    const provider = guarded();
    expect(
      (await send(provider, "/api/v1/users", { headers: { origin: "http://localhost:3000", ...serverKeyHeaders } }))
        .status,
    ).toBe(200);
    expect((await send(provider, "/api/v1/users", { headers: serverKeyHeaders })).status).toBe(200);
  });

  it("client access from any origin keeps working", async () => {
    const provider = guarded();
    const response = await send(provider, "/api/v1/projects/current", {
      headers: {
        origin: ATTACKER,
        "x-stack-access-type": "client",
        "x-stack-project-id": DEV.id,
        "x-stack-publishable-client-key": DEV.keys.publishable_client_key,
      },
    });
    expect(response.status).toBe(200);
  });
});

describe("in process (no guard)", () => {
  it("a provider without requestGuard answers any host, as tests and msw need", async () => {
    const provider = newProvider();
    const response = await provider.app.request("http://fake/__emulator/clock");
    expect(response.status).toBe(200);
  });
});
