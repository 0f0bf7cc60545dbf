import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HttpResponse, http } from "msw";
import { INFINITE_LOOP_MARKER, OFFLINE_MESSAGE } from "@authsim/sdk/contract";
import { ConnectionError, HttpError, KnownError, KnownErrorMismatchError } from "@authsim/sdk";
import { BASE_URL, createFaultHarness } from "./msw-harness.ts";

/**
 * Transport faults forced with msw between our SDK and the fake provider (spec §8 transport, §9 retries): the retry
 * counts and the delays the SDK slept are checked exactly; no real time passes.
 */
const h = createFaultHarness();
beforeAll(() => h.listen());
afterEach(() => h.reset());
afterAll(() => h.close());

const ME = `${BASE_URL}/api/v1/users/me`;
const PROJECT = `${BASE_URL}/api/v1/projects/current`;
const count = (path: string) => h.seen.filter((r) => r.path === path).length;

async function signedInClient() {
  const client = h.client();
  const result = await client.signUpWithCredential({
    email: `u${h.seen.length}@faults.test`,
    password: "password-123",
    noVerificationCallback: true,
    noRedirect: true,
  });
  expect(result.status).toBe("ok");
  h.sleeps.length = 0;
  h.seen.length = 0;
  return client;
}

describe("429 Too Many Requests", () => {
  it("waits exactly Retry-After seconds, then retries and succeeds", async () => {
    const client = await signedInClient();
    h.use(
      http.get(ME, () => new HttpResponse("slow down", { status: 429, headers: { "retry-after": "3" } }), {
        once: true,
      }),
    );
    const user = await client.getUser({ or: "throw" });
    expect(user.primaryEmail).toMatch(/@faults\.test$/);
    expect(h.sleeps).toEqual([3000]);
    expect(count("/api/v1/users/me")).toBe(2);
  });

  it("backs off exponentially with jitter when Retry-After is absent", async () => {
    h.use(http.get(PROJECT, () => new HttpResponse(null, { status: 429 }), { once: true }));
    await h.client().getProject();
    expect(h.sleeps).toHaveLength(1);
    expect(h.sleeps[0]).toBeGreaterThanOrEqual(500);
    expect(h.sleeps[0]).toBeLessThan(1500);
  });
});

describe("508 Loop Detected", () => {
  it("retries a 508 whose body carries the infinite-loop marker", async () => {
    h.use(http.get(PROJECT, () => new HttpResponse(`${INFINITE_LOOP_MARKER}: loop`, { status: 508 }), { once: true }));
    const project = await h.client().getProject();
    expect(project.id).toBe(h.provider.store.read.projects.get(project.id)?.id);
    expect(count("/api/v1/projects/current")).toBe(2);
  });

  it("does not retry a 508 without the marker", async () => {
    h.use(http.get(PROJECT, () => new HttpResponse("loop detected elsewhere", { status: 508 })));
    await expect(h.client().getProject()).rejects.toBeInstanceOf(HttpError);
    expect(count("/api/v1/projects/current")).toBe(1);
  });
});

describe("network failures", () => {
  it("retries an idempotent request with delays 1000·2^i·jitter, jitter in [0.5, 1.5)", async () => {
    let failures = 2;
    h.use(http.get(PROJECT, () => (failures-- > 0 ? HttpResponse.error() : undefined)));
    await h.client().getProject();
    expect(count("/api/v1/projects/current")).toBe(3);
    expect(h.sleeps).toHaveLength(2);
    h.sleeps.forEach((delay, i) => {
      expect(delay).toBeGreaterThanOrEqual(1000 * 2 ** i * 0.5);
      expect(delay).toBeLessThan(1000 * 2 ** i * 1.5);
    });
  });

  it("gives up after 5 attempts with a connection error carrying diagnostics", async () => {
    h.use(http.get(PROJECT, () => HttpResponse.error()));
    const error = await h
      .client()
      .getProject()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).diagnostics).toMatchObject({ method: "GET", attempts: 5 });
    expect((error as ConnectionError).message).toContain(PROJECT);
    expect(count("/api/v1/projects/current")).toBe(5);
    expect(h.sleeps).toHaveLength(4);
  });

  it("does not retry a POST that failed on the network", async () => {
    h.use(http.post(`${BASE_URL}/api/v1/auth/password/sign-in`, () => HttpResponse.error()));
    const error = await h
      .client()
      .signInWithCredential({ email: "a@faults.test", password: "password-123", noRedirect: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(count("/api/v1/auth/password/sign-in")).toBe(1);
    expect(h.sleeps).toEqual([]);
  });

  it("says the device is offline when it is", async () => {
    h.online.value = false;
    h.use(http.post(`${BASE_URL}/api/v1/auth/password/sign-in`, () => HttpResponse.error()));
    const error = await h
      .client()
      .signInWithCredential({ email: "a@faults.test", password: "password-123", noRedirect: true })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(OFFLINE_MESSAGE);
  });
});

describe("known-error validation", () => {
  const knownErrorBody = (code: string) => ({ code, error: "forced" });

  it("rejects a known error whose header and body codes disagree", async () => {
    h.use(
      http.get(PROJECT, () =>
        HttpResponse.json(knownErrorBody("PROJECT_NOT_FOUND"), {
          status: 404,
          headers: { "x-stack-known-error": "USER_NOT_FOUND" },
        }),
      ),
    );
    const error = await h
      .client()
      .getProject()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnownErrorMismatchError);
    expect(count("/api/v1/projects/current")).toBe(1);
  });

  it("turns an unknown code into UNSUPPORTED_ERROR with status 500", async () => {
    h.use(
      http.get(PROJECT, () =>
        HttpResponse.json(knownErrorBody("FROM_THE_FUTURE"), {
          status: 400,
          headers: { "x-stack-known-error": "FROM_THE_FUTURE" },
        }),
      ),
    );
    const error = await h
      .client()
      .getProject()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KnownError);
    expect((error as KnownError).code).toBe("UNSUPPORTED_ERROR");
    expect((error as KnownError).status).toBe(500);
    expect((error as KnownError).details).toMatchObject({ originalErrorCode: "FROM_THE_FUTURE" });
  });

  it("never retries an ordinary known error", async () => {
    h.use(
      http.get(PROJECT, () =>
        HttpResponse.json(knownErrorBody("PROJECT_NOT_FOUND"), {
          status: 404,
          headers: { "x-stack-known-error": "PROJECT_NOT_FOUND" },
        }),
      ),
    );
    await expect(h.client().getProject()).rejects.toMatchObject({ code: "PROJECT_NOT_FOUND" });
    expect(count("/api/v1/projects/current")).toBe(1);
  });

  it("refreshes and retries exactly once on an invalid-access-token error", async () => {
    const client = await signedInClient();
    h.use(
      http.get(
        ME,
        () =>
          HttpResponse.json(knownErrorBody("ACCESS_TOKEN_EXPIRED"), {
            status: 401,
            headers: { "x-stack-known-error": "ACCESS_TOKEN_EXPIRED" },
          }),
        {
          once: true,
        },
      ),
    );
    const user = await client.getUser({ or: "throw" });
    expect(user.id).toBeTruthy();
    expect(count("/api/v1/users/me")).toBe(2);
    expect(count("/api/v1/auth/oauth/token")).toBe(1);
  });

  it("reads the real status from the actual-status header of an overridden error", async () => {
    h.use(
      http.get(PROJECT, () =>
        HttpResponse.json(knownErrorBody("PROJECT_NOT_FOUND"), {
          status: 200,
          headers: { "x-hexclave-known-error": "PROJECT_NOT_FOUND", "x-hexclave-actual-status": "404" },
        }),
      ),
    );
    await expect(h.client().getProject()).rejects.toMatchObject({ code: "PROJECT_NOT_FOUND", status: 404 });
  });
});
