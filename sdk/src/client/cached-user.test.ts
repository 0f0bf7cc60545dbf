import { describe, expect, it } from "vitest";
import { manualTimers } from "../cache/timers.ts";
import { manualClock } from "../runtime/clock.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json, recordingSleep } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, unsignedToken } from "../test-support/tokens.ts";
import { clientProjectJson, clientUserJson } from "../test-support/wire-fixtures.ts";
import { visibleUser } from "./cached-user.ts";
import { isChange } from "./change-feed.ts";
import { StackClientApp } from "./client-app.ts";
import { clientCachesSymbol } from "./client-caches.ts";
import { projectFromClientJson } from "./projects.ts";

const T0 = 1_750_000_000_000;
const accessToken = () => unsignedToken(claims(T0, 600_000));

function setup(initial: { accessToken?: string; refreshToken?: string } = {}) {
  const clock = manualClock(T0);
  const timers = manualTimers(clock);
  let displayName = "Ada";
  const ff = fakeFetch(
    router({
      "GET /users/me": () => json(clientUserJson({ display_name: displayName })),
      "PATCH /users/me": (call) => {
        displayName = (JSON.parse(call.body ?? "{}") as { display_name: string }).display_name;
        return json(clientUserJson({ display_name: displayName }));
      },
      "POST /auth/password/sign-in": () =>
        json({ access_token: accessToken(), refresh_token: "rt-2", user_id: TEST_USER_ID }),
      "GET /projects/current": () => json(clientProjectJson()),
    }),
  );
  const store = memoryTokenStore(initial);
  const app = new StackClientApp({
    projectId: "internal",
    baseUrl: "http://api.test",
    tokenStore: store,
    fetch: ff.fetch,
    clock,
    sleep: recordingSleep().sleep,
    redirectMethod: "none",
  });
  const caches = app[clientCachesSymbol](timers);
  const userCalls = () => ff.calls.filter((c) => c.url.endsWith("/users/me") && c.method === "GET").length;
  const projectCalls = () => ff.calls.filter((c) => c.url.endsWith("/projects/current")).length;
  return { app, caches, timers, store, userCalls, projectCalls };
}

describe("the app's caches (spec §9)", () => {
  it("gives the same caches object for the app on every call", () => {
    const { app, caches } = setup();
    expect(app[clientCachesSymbol]()).toBe(caches);
  });

  it("holds a seeded project at once, with no request, and never replaces a value already held", async () => {
    const { caches, projectCalls } = setup();
    const served = projectFromClientJson({ ...clientProjectJson(), display_name: "Served" });
    caches.project.seed(served);
    expect(caches.project.getSnapshot()).toMatchObject({ status: "ok", value: served });
    caches.project.seed(projectFromClientJson({ ...clientProjectJson(), display_name: "Later" }));
    expect(caches.project.getSnapshot()).toMatchObject({ status: "ok", value: { displayName: "Served" } });
    expect(projectCalls()).toBe(0);
    // A refresh reads the server as usual.
    expect((await caches.project.refresh()).displayName).toBe(clientProjectJson().display_name);
    expect(projectCalls()).toBe(1);
  });

  it("reads a signed-out user as null at once, with no request", () => {
    const { caches, userCalls } = setup();
    expect(caches.currentUser.getSnapshot()).toMatchObject({ status: "ok", value: null });
    expect(userCalls()).toBe(0);
  });

  it("loads the signed-in user once for any number of readers", async () => {
    const { caches, userCalls } = setup({ accessToken: accessToken(), refreshToken: "rt-1" });
    const first = caches.currentUser.getSnapshot();
    expect(first.status).toBe("pending");
    const user = await first.promise;
    expect(user?.displayName).toBe("Ada");
    expect(caches.currentUser.getSnapshot()).toBe(caches.currentUser.getSnapshot());
    expect(userCalls()).toBe(1);
  });

  it("refreshes a watched user after a write through the app (a rename shows without a reload)", async () => {
    const { caches, timers } = setup({ accessToken: accessToken(), refreshToken: "rt-1" });
    const user = await caches.currentUser.getSnapshot().promise;
    let notified = 0;
    const stop = caches.currentUser.subscribe(() => notified++);
    await user!.setDisplayName("Grace");
    await timers.advance(300);
    const snap = caches.currentUser.getSnapshot();
    expect(snap.status === "ok" && snap.value?.displayName).toBe("Grace");
    expect(notified).toBeGreaterThan(0);
    stop();
  });

  it("moves watchers to the new session after a sign-in, and to null after a sign-out", async () => {
    const { app, caches, timers, store } = setup();
    const seen: (string | null | undefined)[] = [];
    const stop = caches.currentUser.subscribe(() => {
      const s = caches.currentUser.getSnapshot();
      seen.push(s.status === "ok" ? (s.value?.displayName ?? null) : undefined);
    });
    await app.signInWithCredential({ email: "ada@example.com", password: "pw", noRedirect: true });
    await timers.advance(0);
    await caches.currentUser.getSnapshot().promise;
    expect(seen.at(-1)).toBe("Ada");
    store.set({ accessToken: null, refreshToken: null });
    // Another tab's sign-out shows through the token poll (spec §9: every 100 ms).
    await timers.advance(100);
    expect(seen.at(-1)).toBe(null);
    stop();
    expect(timers.pending()).toBeGreaterThan(0);
    await timers.advance(5_000);
    expect(timers.pending()).toBe(0);
  });

  it("caches the project for everyone, not per session", async () => {
    const { caches } = setup();
    const project = await caches.project.getSnapshot().promise;
    expect(project.id).toBe(clientProjectJson().id);
  });
});

describe("visibleUser (spec §4)", () => {
  it("hides anonymous users unless anonymous mode is asked for, and restricted ones unless included", async () => {
    const anonymous = setup({ accessToken: accessToken(), refreshToken: "rt-1" });
    const user = await anonymous.caches.currentUser.getSnapshot().promise;
    const anon = { ...user!, isAnonymous: true };
    const restricted = { ...user!, isRestricted: true };
    expect(visibleUser(anon)).toBeNull();
    expect(visibleUser(anon, { or: "anonymous" })).toBe(anon);
    expect(visibleUser(restricted)).toBeNull();
    expect(visibleUser(restricted, { includeRestricted: true })).toBe(restricted);
    expect(visibleUser(user!)).toBe(user);
    expect(visibleUser(null, { or: "anonymous" })).toBeNull();
  });
});

describe("isChange", () => {
  const ok = (status = 200, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers) });
  it("counts successful writes under /api/v1 only", () => {
    expect(isChange("http://x/api/v1/users/me", "PATCH", ok())).toBe(true);
    expect(isChange("http://x/api/v1/users/me", "GET", ok())).toBe(false);
    expect(isChange("http://x/api/v1/auth/oauth/token", "POST", ok())).toBe(false);
    expect(isChange("http://x/api/v1/users/me", "PATCH", ok(400))).toBe(false);
    expect(isChange("http://x/api/v1/users/me", "PATCH", ok(200, { "x-stack-actual-status": "400" }))).toBe(false);
    expect(isChange("http://x/api/v1/users/me", "PATCH", ok(200, { "x-stack-known-error": "SCHEMA_ERROR" }))).toBe(
      false,
    );
    expect(isChange("not a url", "POST", ok())).toBe(false);
  });
});
