import { describe, expect, it } from "vitest";
import type { RequestLogEntry } from "./request-log.ts";
import { createRequestLog } from "./request-log.ts";
import { DASHBOARD_HEADER } from "./middleware.ts";
import {
  api,
  client,
  DEV,
  expectJson,
  newProvider,
  request,
  server,
  signUp,
  START_MILLIS,
} from "../../test-support/api.ts";

const last = (p: ReturnType<typeof newProvider>): RequestLogEntry => p.requestLog.list().at(-1)!;

describe("the request log", () => {
  it("records a success with the provider's time, project, access type, user, operation and duration", async () => {
    const p = newProvider();
    p.clock.advance(5_000);
    const user = await signUp(p);
    await api(p, "/users/me?", { headers: client({ accessToken: user.access_token }) });
    const entry = last(p);
    expect(entry).toMatchObject({
      atMillis: START_MILLIS + 5_000,
      method: "GET",
      path: "/api/v1/users/me",
      projectId: DEV.id,
      accessType: "client",
      userId: user.user_id,
      operationId: "getMe",
      status: 200,
      knownError: null,
      why: ["op getMe answered 200"],
      fromDashboard: false,
    });
    expect(entry.durationMillis).toBeGreaterThanOrEqual(0);
    expect(p.requestLog.list().map((e) => e.operationId)).toEqual(["passwordSignUp", "getMe"]);
  });

  it("names the parseAuth step that refused a key", async () => {
    const p = newProvider();
    await api(p, "/users", { headers: server({ secretServerKey: "ssk_wrong" }) });
    expect(last(p)).toMatchObject({ status: 401, knownError: "INVALID_SECRET_SERVER_KEY" });
    expect(last(p).why).toEqual([
      `parseAuth step 7: INVALID_SECRET_SERVER_KEY — The secret server key is not valid for the project "${DEV.id}". Does the project and/or the key exist?`,
    ]);
    await api(p, "/users", { headers: { accessType: "server" } });
    expect(last(p).why[0]).toMatch(/^parseAuth step 4: ACCESS_TYPE_WITHOUT_PROJECT_ID — /);
    await api(p, "/users", { headers: client() });
    expect(last(p).why[0]).toMatch(/^access check: INSUFFICIENT_ACCESS_TYPE — /);
  });

  it("lists each schema problem, and the op's known error with its message", async () => {
    const p = newProvider();
    await api(p, "/users", { headers: server(), json: { display_name: "A", x: 1, y: 2 } });
    expect(last(p)).toMatchObject({
      status: 400,
      knownError: "SCHEMA_ERROR",
      why: ["schema: body contains unknown properties: x, y"],
    });
    await api(p, "/auth/password/sign-in", {
      headers: client(),
      json: { email: "nobody@example.com", password: "wrong password" },
    });
    expect(last(p)).toMatchObject({ status: 400, knownError: "EMAIL_PASSWORD_MISMATCH" });
    expect(last(p).why).toEqual(["op passwordSignIn: EMAIL_PASSWORD_MISMATCH — Wrong e-mail or password."]);
    await api(p, "/auth/password/sign-in", { headers: client(), body: "{not json", contentType: "application/json" });
    expect(last(p).why).toEqual(["body parsing: BODY_PARSING_ERROR — Invalid JSON in request body"]);
  });

  it("names fired fault rules, including latency that let the request through and a dropped connection", async () => {
    const p = newProvider();
    const slow = p.faults.add({ path: "/projects/current", action: { type: "latency", millis: 1 } });
    const limited = p.faults.add({
      path: "/projects/current",
      action: { type: "status", status: 429, headers: { "retry-after": "1" } },
    });
    await api(p, "/projects/current", { headers: client() });
    expect(last(p)).toMatchObject({ status: 429, operationId: null });
    expect(last(p).why).toEqual([
      `fault rule ${slow.id} (any method /projects/current): added 1 ms latency`,
      `fault rule ${limited.id} (any method /projects/current): forced status 429`,
    ]);
    const drop = p.faults.add({ method: "GET", path: "/projects/current", action: { type: "drop" } });
    await expect(api(p, "/projects/current", { headers: client() })).rejects.toBeInstanceOf(TypeError);
    expect(last(p)).toMatchObject({
      status: null,
      why: [`fault rule ${drop.id} (GET /projects/current): dropped the connection`],
    });
  });

  it("records the status the client really got under override-error-status, and unknown paths", async () => {
    const p = newProvider();
    await api(p, "/users", {
      headers: server({ secretServerKey: "nope" }),
      raw: { "x-stack-override-error-status": "true" },
    });
    expect(last(p)).toMatchObject({ status: 401, knownError: "INVALID_SECRET_SERVER_KEY" });
    await api(p, "/no/such/path", { headers: client() });
    expect(last(p)).toMatchObject({
      status: 404,
      operationId: null,
      why: ["no operation of the contract has this path (plain-text 404)"],
    });
    // Control endpoints are not API traffic.
    await request(p, "/__emulator/clock");
    expect(last(p).path).toBe("/api/v1/no/such/path");
  });

  it("keeps the newest entries of a bounded ring, numbered monotonically, and is cleared by reset", async () => {
    const p = newProvider({ requestLogCapacity: 3 });
    for (let i = 0; i < 5; i++) await api(p, `/projects/current?n=${i}`, { headers: client() });
    expect(p.requestLog.list().map((e) => [e.seq, e.query])).toEqual([
      [3, "n=2"],
      [4, "n=3"],
      [5, "n=4"],
    ]);
    p.reset();
    expect(p.requestLog.list()).toEqual([]);
    await api(p, "/projects/current", { headers: client() });
    expect(p.requestLog.list().map((e) => e.seq)).toEqual([6]);
  });

  it("filters by method, path, project, status class, code, sequence and the dashboard's own traffic", () => {
    const log = createRequestLog(10);
    const base = {
      atMillis: 0,
      query: "",
      accessType: "client",
      userId: null,
      operationId: null,
      knownError: null,
      durationMillis: 1,
      why: [],
      fromDashboard: false,
    };
    log.record({ ...base, method: "GET", path: "/api/v1/users/me", projectId: "a", status: 200 });
    log.record({
      ...base,
      method: "POST",
      path: "/api/v1/users",
      projectId: "b",
      status: 401,
      knownError: "INVALID_SECRET_SERVER_KEY",
    });
    log.record({ ...base, method: "GET", path: "/api/v1/teams", projectId: "a", status: 503, fromDashboard: true });
    const seqs = (f: Parameters<typeof log.list>[0]) => log.list(f).map((e) => e.seq);
    expect(seqs({ method: "get" })).toEqual([1, 3]);
    expect(seqs({ path: "/users" })).toEqual([1, 2]);
    expect(seqs({ projectId: "a" })).toEqual([1, 3]);
    expect(seqs({ status: "4xx" })).toEqual([2]);
    expect(seqs({ status: "503" })).toEqual([3]);
    expect(seqs({ knownError: "INVALID_SECRET_SERVER_KEY" })).toEqual([2]);
    expect(seqs({ afterSeq: 1, excludeDashboard: true })).toEqual([2]);
    expect(seqs({ limit: 2 })).toEqual([2, 3]);
    expect(() => createRequestLog(0)).toThrow(RangeError);
  });

  it("is served at GET /__emulator/requests with filters, and cleared by DELETE", async () => {
    const p = newProvider();
    await api(p, "/projects/current", { headers: client(), raw: { [DASHBOARD_HEADER]: "1" } });
    await api(p, "/users", { headers: server({ secretServerKey: "nope" }) });
    const all = await expectJson<{ items: RequestLogEntry[]; capacity: number }>(
      await request(p, "/__emulator/requests"),
    );
    expect(all.capacity).toBe(1_000);
    expect(all.items.map((e) => [e.status, e.fromDashboard])).toEqual([
      [200, true],
      [401, false],
    ]);
    const own = await expectJson<{ items: RequestLogEntry[] }>(
      await request(p, "/__emulator/requests?exclude_dashboard=true&status=4xx&known_error=INVALID_SECRET_SERVER_KEY"),
    );
    expect(own.items.map((e) => e.path)).toEqual(["/api/v1/users"]);
    expect((await request(p, "/__emulator/requests?status=teapot")).status).toBe(400);
    expect((await request(p, "/__emulator/requests", { method: "DELETE" })).status).toBe(200);
    expect(p.requestLog.list()).toEqual([]);
  });
});

describe("GET /__emulator/counts", () => {
  it("counts a project's users and emails and the log's requests other than the dashboard's", async () => {
    const p = newProvider();
    const counts = async () =>
      expectJson<{ users: number; emails: number; requests: number }>(
        await request(p, `/__emulator/counts?project_id=${DEV.id}`),
      );
    const before = await counts();
    await signUp(p, { email: "count@example.com" });
    await api(p, "/auth/password/send-reset-code", {
      json: { email: "count@example.com", callback_url: "http://localhost:3000/handler/password-reset" },
      headers: client(),
    });
    await api(p, "/projects/current", { headers: client(), raw: { [DASHBOARD_HEADER]: "1" } });
    const after = await counts();
    expect(after.users - before.users).toBe(1);
    // The sign-up's verification email (when the project sends one) and the reset email: what the outbox holds.
    expect(after.emails).toBe(p.outbox.list({ projectId: DEV.id }).length);
    expect(after.emails).toBeGreaterThan(before.emails);
    // The two calls above, not the dashboard's one.
    expect(after.requests - before.requests).toBe(2);
    expect((await request(p, "/__emulator/counts?project_id=someone-else")).status).toBe(200);
    expect((await request(p, "/__emulator/counts")).status).toBe(400);
  });
});
