import { describe, expect, it } from "vitest";
import { OFFLINE_MESSAGE } from "../contract/headers.ts";
import { KnownError } from "../errors/known-error.ts";
import { ConnectionError, HttpError, KnownErrorMismatchError } from "../errors/sdk-errors.ts";
import type { RandomSource } from "../runtime/ids.ts";
import {
  fakeFetch,
  json,
  knownError,
  networkFailure,
  recordingSleep,
  sequence,
  type Responder,
} from "../test-support/fake-fetch.ts";
import { createTransport, type TransportOptions, type UserTokenSource } from "./transport.ts";

/** A RandomSource whose bytes are all `b`: 0x00 gives jitter 0.5, 0xff just under 1.5. */
const constantRandom = (b: number): RandomSource => ({ bytes: (n) => new Uint8Array(n).fill(b) });
/** Bytes 0x80 00 00 00 …: a unit value of exactly 0.5, i.e. jitter 1.0. */
const midRandom: RandomSource = { bytes: (n) => Uint8Array.from({ length: n }, (_, i) => (i % 4 === 0 ? 0x80 : 0)) };

function setup(responder: Responder, extra: Partial<TransportOptions> = {}) {
  const ff = fakeFetch(responder);
  const rec = recordingSleep();
  const transport = createTransport({
    baseUrl: "http://api.test/",
    projectId: "internal",
    accessType: "client",
    publishableClientKey: "pck",
    fetch: ff.fetch,
    sleep: rec.sleep,
    random: midRandom,
    isOnline: () => true,
    ...extra,
  });
  return { transport, calls: ff.calls, waits: rec.waits };
}

describe("request headers and URL", () => {
  it("sends the x-stack headers of protocol.md §2.1 to {baseUrl}/api/v1{path}", async () => {
    const { transport, calls } = setup(() => json({ ok: true }));
    await transport.request("/users/me", { allowAnonymousUser: true, query: { a: "1", b: undefined } });
    const c = calls[0]!;
    expect(c.url).toBe("http://api.test/api/v1/users/me?a=1");
    expect(c.headers["x-stack-project-id"]).toBe("internal");
    expect(c.headers["x-stack-access-type"]).toBe("client");
    expect(c.headers["x-stack-override-error-status"]).toBe("true");
    expect(c.headers["x-stack-allow-anonymous-user"]).toBe("true");
    expect(c.headers["x-stack-client-version"]).toMatch(/^js @authsim\/sdk@/);
    expect(c.headers["x-stack-random-nonce"]).toHaveLength(45);
    expect(c.headers["x-stack-publishable-client-key"]).toBe("pck");
    expect(c.headers["x-stack-secret-server-key"]).toBeUndefined();
    expect(c.init.credentials).toBe("omit");
    expect(c.init.cache).toBe("no-store");
  });

  it("omits allow-anonymous-user unless asked, strips the trailing slash and merges extra headers last", async () => {
    const { transport, calls } = setup(() => json({}), {
      extraRequestHeaders: { "x-extra": "1", "x-stack-project-id": "override" },
    });
    await transport.request("/", { method: "POST", body: { a: 1 } });
    const c = calls[0]!;
    expect(c.url).toBe("http://api.test/api/v1");
    expect(c.headers["x-stack-allow-anonymous-user"]).toBeUndefined();
    expect(c.headers["x-extra"]).toBe("1");
    expect(c.headers["x-stack-project-id"]).toBe("override");
    expect(c.headers["content-type"]).toBe("application/json");
    expect(c.body).toBe('{"a":1}');
  });

  it("sends keys per access type and the session's tokens", async () => {
    const { transport, calls } = setup(() => json({}), {
      accessType: "admin",
      secretServerKey: "ssk",
      superSecretAdminKey: "ssak",
    });
    const session: UserTokenSource = {
      getAccessToken: async () => "at",
      getRefreshToken: () => "rt",
      markAccessTokenExpired: () => {},
    };
    await transport.request("/x", { session });
    const c = calls[0]!;
    expect(c.headers["x-stack-secret-server-key"]).toBe("ssk");
    expect(c.headers["x-stack-super-secret-admin-key"]).toBe("ssak");
    expect(c.headers["x-stack-access-token"]).toBe("at");
    expect(c.headers["x-stack-refresh-token"]).toBe("rt");
  });
});

describe("network failures", () => {
  it("retries an idempotent request up to 5 attempts with exponential, jittered delays", async () => {
    const { transport, calls, waits } = setup(networkFailure, { random: constantRandom(0x00) });
    await expect(transport.request("/users/me")).rejects.toBeInstanceOf(ConnectionError);
    expect(calls).toHaveLength(5);
    // jitter 0.5: 1000 × 2^i × 0.5
    expect(waits).toEqual([500, 1000, 2000, 4000]);
  });

  it("uses jitter up to 1.5 from the random source", async () => {
    const { transport, waits } = setup(networkFailure, { random: constantRandom(0xff) });
    await expect(transport.request("/x", { method: "DELETE" })).rejects.toThrow();
    expect(waits).toHaveLength(4);
    expect(waits[0]).toBe(1499);
  });

  it("succeeds when a retry gets through", async () => {
    const { transport, calls } = setup(sequence(networkFailure, networkFailure, () => json({ fine: 1 })));
    const res = await transport.request("/x", { method: "PUT" });
    expect(JSON.parse(res.text)).toEqual({ fine: 1 });
    expect(calls).toHaveLength(3);
  });

  it.each(["POST", "PATCH"])("throws at once for %s", async (method) => {
    const { transport, calls, waits } = setup(networkFailure);
    const e: unknown = await transport.request("/x", { method }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectionError);
    expect((e as ConnectionError).diagnostics).toMatchObject({ url: "http://api.test/api/v1/x", method, attempts: 1 });
    expect((e as Error).message).toContain("http://api.test/api/v1/x");
    expect(calls).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it("says exactly OFFLINE_MESSAGE when the device is offline", async () => {
    const { transport } = setup(networkFailure, { isOnline: () => false });
    const e: unknown = await transport.request("/x", { method: "POST" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ConnectionError);
    expect((e as Error).message).toBe(OFFLINE_MESSAGE);
  });

  it("does not retry errors other than network TypeErrors", async () => {
    const { transport, calls } = setup(() => {
      throw new DOMException("aborted", "AbortError");
    });
    await expect(transport.request("/x")).rejects.toThrow("aborted");
    expect(calls).toHaveLength(1);
  });
});

describe("429 and 508", () => {
  it("waits exactly Retry-After seconds, then retries (even a POST)", async () => {
    const { transport, calls, waits } = setup(
      sequence(
        () => json({ message: "slow down" }, 429, { "retry-after": "3" }),
        () => json({ ok: 1 }),
      ),
    );
    await transport.request("/x", { method: "POST", body: {} });
    expect(calls).toHaveLength(2);
    expect(waits).toEqual([3000]);
  });

  it("backs off when a 429 has no Retry-After", async () => {
    const { transport, waits } = setup(
      sequence(
        () => json({}, 429),
        () => json({}),
      ),
    );
    await transport.request("/x");
    expect(waits).toEqual([1000]);
  });

  it("honours a 429 carried as actual-status and gives up after 5 attempts", async () => {
    const { transport, calls, waits } = setup(() =>
      json({}, 200, { "x-stack-actual-status": "429", "retry-after": "1" }),
    );
    const e: unknown = await transport.request("/x").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(HttpError);
    expect((e as HttpError).status).toBe(429);
    expect(calls).toHaveLength(5);
    expect(waits).toEqual([1000, 1000, 1000, 1000]);
  });

  it("clamps a huge Retry-After to the maximum wait", async () => {
    const { transport, waits } = setup(
      sequence(
        () => json({}, 429, { "retry-after": "99999999999" }),
        () => json({}),
      ),
    );
    await transport.request("/x");
    expect(waits).toEqual([2_147_483_647]);
  });

  it("retries a 508 whose body has the infinite-loop marker, but not a plain 508", async () => {
    const a = setup(
      sequence(
        () => new Response("INFINITE_LOOP_DETECTED", { status: 508 }),
        () => json({}),
      ),
    );
    await a.transport.request("/x", { method: "POST" });
    expect(a.calls).toHaveLength(2);
    const b = setup(() => new Response("loop", { status: 508 }));
    await expect(b.transport.request("/x")).rejects.toBeInstanceOf(HttpError);
    expect(b.calls).toHaveLength(1);
  });

  it("throws other non-known errors with status and body text", async () => {
    const { transport } = setup(() => new Response("Invalid development key override", { status: 401 }));
    await expect(transport.request("/x")).rejects.toThrow(/401 Invalid development key override/);
  });
});

describe("known errors", () => {
  it("throws them without retrying", async () => {
    const { transport, calls } = setup(() => knownError("USER_NOT_FOUND", 404));
    const e: unknown = await transport.request("/users/x").catch((x: unknown) => x);
    expect(e).toBeInstanceOf(KnownError);
    expect((e as KnownError).code).toBe("USER_NOT_FOUND");
    expect(calls).toHaveLength(1);
  });

  it("rejects a header/body mismatch", async () => {
    const { transport } = setup(() =>
      json({ code: "TEAM_NOT_FOUND" }, 200, { "x-stack-known-error": "USER_NOT_FOUND" }),
    );
    await expect(transport.request("/x")).rejects.toBeInstanceOf(KnownErrorMismatchError);
  });

  it.each(["ACCESS_TOKEN_EXPIRED", "UNPARSABLE_ACCESS_TOKEN", "INVALID_PROJECT_FOR_ACCESS_TOKEN"])(
    "marks the access token expired on %s, refreshes and retries exactly once",
    async (code) => {
      let token = "old";
      const expired: string[] = [];
      const session: UserTokenSource = {
        getAccessToken: async () => token,
        getRefreshToken: () => "rt",
        markAccessTokenExpired: (t) => {
          expired.push(t);
          token = "new";
        },
      };
      const ok = setup(
        sequence(
          () => knownError(code, 401),
          () => json({ ok: 1 }),
        ),
      );
      await ok.transport.request("/users/me", { session });
      expect(expired).toEqual(["old"]);
      expect(ok.calls.map((c) => c.headers["x-stack-access-token"])).toEqual(["old", "new"]);

      token = "old";
      const fail = setup(() => knownError(code, 401));
      await expect(fail.transport.request("/users/me", { session })).rejects.toMatchObject({ code });
      expect(fail.calls).toHaveLength(2);
    },
  );

  it("does not retry an invalid-access-token error when no token was sent", async () => {
    const session: UserTokenSource = {
      getAccessToken: async () => null,
      getRefreshToken: () => null,
      markAccessTokenExpired: () => {},
    };
    const { transport, calls } = setup(() => knownError("ACCESS_TOKEN_EXPIRED", 401));
    await expect(transport.request("/x", { session })).rejects.toBeInstanceOf(KnownError);
    expect(calls).toHaveLength(1);
  });

  it("retries once with a new admin access token on an INVALID_ADMIN_ACCESS_TOKEN error", async () => {
    let n = 0;
    const adminSession = { getAdminAccessToken: async () => `admin-${n}`, markAdminAccessTokenExpired: () => void n++ };
    const { transport, calls } = setup(
      sequence(
        () => knownError("ADMIN_ACCESS_TOKEN_EXPIRED", 401),
        () => json({}),
      ),
      {
        accessType: "admin",
        adminSession,
      },
    );
    await transport.request("/internal/projects/current");
    expect(calls.map((c) => c.headers["x-stack-admin-access-token"])).toEqual(["admin-0", "admin-1"]);
  });
});

describe("requestBare", () => {
  it("sends no x-stack headers", async () => {
    const { transport, calls } = setup(() => json({}));
    await transport.requestBare("/auth/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(Object.keys(calls[0]!.headers).filter((k) => k.startsWith("x-stack"))).toEqual([]);
    expect(calls[0]!.init.credentials).toBe("omit");
  });
});
