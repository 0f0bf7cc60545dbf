import { describe, expect, it } from "vitest";
import { KnownError } from "../errors/known-error.ts";
import { manualClock } from "../runtime/clock.ts";
import { createTransport } from "../transport/transport.ts";
import { fakeFetch, json, knownError, recordingSleep } from "../test-support/fake-fetch.ts";
import { claims, unsignedToken } from "../test-support/tokens.ts";
import { AdminSession, AdminSessionUnsupportedError } from "./admin-session.ts";
import { Session, type Refresher } from "./session.ts";
import { createRefresher } from "./token-endpoint.ts";
import { memoryTokenStore } from "./token-store.ts";

const T0 = 1_750_000_000_000;
const token = (now: number, life: number) => unsignedToken(claims(now, life));

function setup(refresher: Refresher, initial: { accessToken?: string | null; refreshToken?: string | null } = {}) {
  const clock = manualClock(T0);
  const store = memoryTokenStore(initial);
  return { clock, store, session: new Session(store, refresher, clock) };
}

describe("Session.getAccessToken", () => {
  it("returns the stored token while it has at least 20 s left", async () => {
    let refreshes = 0;
    const at = token(T0, 60_000);
    const { session, clock } = setup(
      async () => {
        refreshes++;
        return { accessToken: token(clock.now(), 60_000) };
      },
      { accessToken: at, refreshToken: "rt" },
    );
    expect(await session.getAccessToken()).toBe(at);
    clock.advance(40_000); // exactly 20 s left
    expect(await session.getAccessToken()).toBe(at);
    clock.advance(1_000);
    expect(await session.getAccessToken()).not.toBe(at);
    expect(refreshes).toBe(1);
  });

  it("refreshes when there is no access token", async () => {
    const fresh = token(T0, 600_000);
    const { session, store } = setup(
      async (rt) => {
        expect(rt).toBe("rt");
        return { accessToken: fresh };
      },
      { refreshToken: "rt" },
    );
    expect(await session.getAccessToken()).toBe(fresh);
    expect(store.get()).toEqual({ accessToken: fresh, refreshToken: "rt" });
  });

  it("shares one refresh between concurrent callers", async () => {
    let calls = 0;
    let release: (v: { accessToken: string }) => void = () => {};
    const { session } = setup(
      () => {
        calls++;
        return new Promise((resolve) => (release = resolve));
      },
      { refreshToken: "rt" },
    );
    const a = session.getAccessToken();
    const b = session.getAccessToken();
    const fresh = token(T0, 600_000);
    release({ accessToken: fresh });
    expect(await Promise.all([a, b])).toEqual([fresh, fresh]);
    expect(calls).toBe(1);
    // A later refresh is a new flight.
    session.markAccessTokenExpired(fresh);
    const c = session.getAccessToken();
    release({ accessToken: fresh });
    await c;
    expect(calls).toBe(2);
  });

  it("clears both tokens and returns null when the refresh token is rejected", async () => {
    const { session, store } = setup(
      async () => {
        throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
      },
      { accessToken: token(T0, 5_000), refreshToken: "rt" },
    );
    expect(await session.getAccessToken()).toBeNull();
    expect(store.get()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("rethrows other refresh failures and keeps the tokens", async () => {
    const { session, store } = setup(
      async () => {
        throw new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: "x" });
      },
      { refreshToken: "rt" },
    );
    await expect(session.getAccessToken()).rejects.toMatchObject({ code: "INVALID_OAUTH_CLIENT_ID_OR_SECRET" });
    expect(store.get().refreshToken).toBe("rt");
  });

  it("refuses a required remaining life of 60 s or more", async () => {
    const { session } = setup(async () => ({ accessToken: token(T0, 600_000) }), { refreshToken: "rt" });
    await expect(session.getAccessToken({ minRemainingMillis: 60_000 })).rejects.toThrow(/under 60000 ms/);
    await expect(session.getAccessToken({ minRemainingMillis: 59_999 })).resolves.toBeTypeOf("string");
  });

  it("refuses a refreshed token that lacks the required claims", async () => {
    const { session } = setup(async () => ({ accessToken: unsignedToken({ sub: "nope" }) }), { refreshToken: "rt" });
    await expect(session.getAccessToken()).rejects.toThrow(/invalid/);
  });

  it("uses an access token without a refresh token until it expires", async () => {
    const at = token(T0, 10_000);
    const { session, clock } = setup(
      async () => {
        throw new Error("must not refresh");
      },
      { accessToken: at },
    );
    expect(await session.getAccessToken()).toBe(at);
    clock.advance(10_000);
    expect(await session.getAccessToken()).toBeNull();
  });
});

describe("Session tokens", () => {
  it('never accepts the literal "undefined" as a token', async () => {
    const { session } = setup(async () => ({ accessToken: "x" }));
    expect(() => session.setTokens({ accessToken: "undefined", refreshToken: "rt" })).toThrow(/undefined/);
    expect(() => session.setTokens({ accessToken: null, refreshToken: "undefined" })).toThrow(/undefined/);
    const stored = setup(async () => ({ accessToken: "x" }), { accessToken: "undefined", refreshToken: "undefined" });
    expect(stored.session.getTokens()).toEqual({ accessToken: null, refreshToken: null });
    expect(await stored.session.getAccessToken()).toBeNull();
  });

  it("drops an access token whose claims are invalid", () => {
    const { session } = setup(async () => ({ accessToken: "x" }));
    session.setTokens({ accessToken: "not-a-jwt", refreshToken: "rt" });
    expect(session.getTokens()).toEqual({ accessToken: null, refreshToken: "rt" });
    session.setTokens({ accessToken: unsignedToken({ ...claims(T0, 1000), role: "admin" }), refreshToken: "rt" });
    expect(session.getTokens().accessToken).toBeNull();
  });

  it("markAccessTokenExpired clears only the named token; markInvalid clears both", () => {
    const at = token(T0, 600_000);
    const { session, store } = setup(async () => ({ accessToken: "x" }), { accessToken: at, refreshToken: "rt" });
    session.markAccessTokenExpired("another");
    expect(store.get().accessToken).toBe(at);
    session.markAccessTokenExpired(at);
    expect(store.get()).toEqual({ accessToken: null, refreshToken: "rt" });
    session.markInvalid();
    expect(store.get()).toEqual({ accessToken: null, refreshToken: null });
  });
});

describe("the refresh grant", () => {
  it("posts a form to /auth/oauth/token with no x-stack headers", async () => {
    const fresh = token(T0, 600_000);
    const ff = fakeFetch(() =>
      json({ access_token: fresh, token_type: "Bearer", expires_in: 600, scope: "legacy", refresh_token: "rt" }),
    );
    const transport = createTransport({
      baseUrl: "http://api.test",
      projectId: "internal",
      accessType: "client",
      fetch: ff.fetch,
    });
    const { session } = setup(createRefresher(transport), { refreshToken: "rt" });
    expect(await session.getAccessToken()).toBe(fresh);
    const call = ff.calls[0]!;
    expect(call.url).toBe("http://api.test/api/v1/auth/oauth/token");
    expect(call.method).toBe("POST");
    expect(call.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(call.body))).toEqual({
      grant_type: "refresh_token",
      refresh_token: "rt",
      client_id: "internal",
      client_secret: "__stack_public_client__",
    });
    expect(Object.keys(call.headers).some((k) => k.startsWith("x-stack"))).toBe(false);
  });

  it("sends the publishable key as client_secret and ends the session on REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", async () => {
    const ff = fakeFetch(() => knownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401));
    const transport = createTransport({
      baseUrl: "http://api.test",
      projectId: "internal",
      accessType: "client",
      fetch: ff.fetch,
      sleep: recordingSleep().sleep,
    });
    const { session, store } = setup(createRefresher(transport, "pck"), {
      accessToken: token(T0, 1_000),
      refreshToken: "rt",
    });
    expect(await session.getAccessToken()).toBeNull();
    expect(new URLSearchParams(ff.calls[0]!.body).get("client_secret")).toBe("pck");
    expect(store.get()).toEqual({ accessToken: null, refreshToken: null });
  });
});

describe("AdminSession", () => {
  it("refuses token refresh and OAuth with a clear error", () => {
    const admin = new AdminSession("admin-token", manualClock(T0));
    expect(() => admin.refresh()).toThrow(AdminSessionUnsupportedError);
    expect(() => admin.refresh()).toThrow(/cannot be used for token refresh/);
    expect(() => admin.refuse("OAuth")).toThrow(/cannot be used for OAuth/);
  });

  it("asks its provider again after the token is marked expired", async () => {
    let n = 0;
    const admin = new AdminSession(async () => token(T0, 600_000 + n++ * 1000), manualClock(T0));
    const first = await admin.getAdminAccessToken();
    expect(await admin.getAdminAccessToken()).toBe(first);
    admin.markAdminAccessTokenExpired(first!);
    expect(await admin.getAdminAccessToken()).not.toBe(first);
    expect(n).toBe(2);
  });
});
