import { Hono } from "hono";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { headerNames, operations, rebranded, type HeaderKey } from "@authsim/sdk/contract";
import { implementedRoutes } from "./index.ts";
import { mountOperations } from "./mount.ts";
import { MAX_BODY_BYTES } from "../http/parse.ts";
import {
  DEV,
  ORIGIN,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  server,
  signUp,
  wire,
  type Fields,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * The 501 rule ("every endpoint of the contract exists; one not implemented yet answers a clear 501", design.md) now
 * that every operation is implemented: the pipeline of mount.ts over a route table with nothing in it.
 */
function appWithoutRoutes(p: TestProvider): Hono {
  const app = new Hono();
  mountOperations(
    app,
    {
      store: p.store,
      clock: p.clock,
      random: p.random,
      settings: p.settings,
      onUnexpectedError: (e) => p.unexpected.push(e),
    },
    {},
  );
  return app;
}

/** Transport behaviour of protocol.md §1–2: parsing, schema errors, status override, common headers, CORS, 404/501. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const signUpPath = "/auth/password/sign-up";

describe("request parsing", () => {
  it("rejects an unknown body key with SCHEMA_ERROR naming the property", async () => {
    const response = await api(provider, signUpPath, {
      headers: client(),
      json: { email: "ada@example.com", password: "long enough", x: 1 },
    });
    const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
    const message =
      "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body contains unknown properties: x";
    expect(body.error).toBe(message);
    expect(body.details).toEqual({ message });
  });

  it("rejects an unknown query key with SCHEMA_ERROR", async () => {
    const body = await expectKnownError(await api(provider, "/?extra=param"), "SCHEMA_ERROR", 400);
    expect(body.error).toBe("Request validation failed on GET /api/v1:\n  - query contains unknown properties: extra");
  });

  it("names the field of a wrong-typed body value", async () => {
    const response = await api(provider, signUpPath, {
      headers: client(),
      json: { email: "ada@example.com", password: 12345678 },
    });
    const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(body.error).toBe(
      "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.password must be a `string` type, but the final value was: `12345678`.",
    );
  });

  it("rejects invalid JSON with BODY_PARSING_ERROR", async () => {
    const response = await api(provider, signUpPath, {
      headers: client(),
      body: "{not json",
      contentType: "application/json",
    });
    const body = await expectKnownError(response, "BODY_PARSING_ERROR", 400);
    expect(body.error).toBe("Invalid JSON in request body");
  });

  it("rejects an unknown content type with BODY_PARSING_ERROR", async () => {
    const response = await api(provider, signUpPath, { headers: client(), body: "a,b", contentType: "text/csv" });
    const body = await expectKnownError(response, "BODY_PARSING_ERROR", 400);
    expect(body.error).toBe("Unknown content type in request body: text/csv");
  });

  it("rejects a malformed UUID path parameter with SCHEMA_ERROR, not 404 or 500", async () => {
    const body = await expectKnownError(
      await api(provider, "/users/not-a-uuid", { headers: server() }),
      "SCHEMA_ERROR",
      400,
    );
    expect(body.error).toContain(
      "Request validation failed on GET /api/v1/users/not-a-uuid:\n  - params.user_id must be a valid UUID",
    );
  });

  it("parses the body before authenticating: BODY_PARSING_ERROR wins over a wrong key", async () => {
    const response = await api(provider, signUpPath, {
      headers: client({ publishableClientKey: "wrong" }),
      body: "{",
      contentType: "application/json",
    });
    await expectKnownError(response, "BODY_PARSING_ERROR", 400);
    const noAuth = await api(provider, "/users", { body: "a,b", contentType: "text/csv" });
    await expectKnownError(noAuth, "BODY_PARSING_ERROR", 400);
  });

  it("checks the access type before the schema: INSUFFICIENT_ACCESS_TYPE wins over an unknown body key", async () => {
    const response = await api(provider, "/users", { headers: client(), json: { unknown: 1 } });
    await expectKnownError(response, "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  describe("a body larger than MAX_BODY_BYTES", () => {
    const tooLarge = `Request body too large (max ${MAX_BODY_BYTES} bytes)`;
    const url = `${ORIGIN}/api/v1/auth/password/sign-in`;
    /** A body of `total` bytes of JSON whitespace in 64 KiB chunks, counting what the reader pulled. */
    function streamed(total: number) {
      const pulled = { bytes: 0, cancelled: false };
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const size = Math.min(64 * 1024, total - pulled.bytes);
          if (size <= 0) return controller.close();
          pulled.bytes += size;
          controller.enqueue(new Uint8Array(size).fill(0x20));
        },
        cancel() {
          pulled.cancelled = true;
        },
      });
      return { stream, pulled };
    }
    const post = (body: BodyInit, fields: Fields = {}, headers: Record<string, string> = {}) =>
      provider.fetch(
        new Request(url, {
          method: "POST",
          body,
          headers: { ...wire(client(fields)), "content-type": "application/json", ...headers },
          duplex: "half",
        } as RequestInit),
      );

    it("is refused with 413 from its Content-Length alone, before any of it is read or any credential checked", async () => {
      const { stream, pulled } = streamed(100 * 1024 * 1024);
      const response = await post(
        stream,
        { publishableClientKey: "wrong" },
        { "content-length": String(100 * 1024 * 1024) },
      );
      expect([response.status, response.headers.get("content-type"), await response.text()]).toEqual([
        413,
        "text/plain; charset=utf-8",
        tooLarge,
      ]);
      expect(pulled.bytes).toBeLessThanOrEqual(64 * 1024);
    });

    it("is refused with 413 while it streams without a length: reading stops at the limit and the stream is cancelled", async () => {
      const { stream, pulled } = streamed(100 * 1024 * 1024);
      const response = await post(stream);
      expect([response.status, await response.text()]).toEqual([413, tooLarge]);
      expect(pulled.cancelled).toBe(true);
      // A stream pulls ahead of its reader into its queue (a chunk or two, by how the request wraps it): what counts is
      // that reading stopped at the limit, never near the 100 MB sent.
      expect(pulled.bytes).toBeLessThanOrEqual(MAX_BODY_BYTES + 4 * 64 * 1024);
    });

    it("is read up to the limit itself: a body of exactly MAX_BODY_BYTES is parsed as ever", async () => {
      const user = await signUp(provider);
      const json = JSON.stringify({ email: user.email, password: user.password });
      // The JSON, then whitespace up to the limit.
      const body = new Uint8Array(MAX_BODY_BYTES).fill(0x20);
      body.set(new TextEncoder().encode(json));
      const response = await post(body);
      expect(await expectJson(response)).toMatchObject({ user_id: user.user_id });
    });
  });

  it("accepts an empty `{}` body where an operation takes none", async () => {
    const user = await signUp(provider);
    const response = await api(provider, "/auth/sessions/current", {
      method: "DELETE",
      headers: client({ accessToken: user.access_token }),
      json: {},
    });
    expect(await expectJson(response)).toEqual({ success: true });
  });
});

describe("override-error-status", () => {
  const unauthorized = { accessType: "server", projectId: DEV.id } as const;

  it("answers a 4xx as 200 with the actual-status header of the request's family when asked", async () => {
    const response = await api(provider, "/", { headers: { ...unauthorized, overrideErrorStatus: "true" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-stack-actual-status")).toBe("401");
    expect(response.headers.get("x-hexclave-actual-status")).toBeNull();
    expect(response.headers.get("x-stack-known-error")).toBe("SERVER_AUTHENTICATION_REQUIRED");
    expect(response.headers.get("x-hexclave-known-error")).toBeNull();
    expect(JSON.parse(await response.text())).toMatchObject({ code: "SERVER_AUTHENTICATION_REQUIRED" });
  });

  it("honours the header's presence in the x-hexclave family, whatever its value", async () => {
    const response = await api(provider, "/", {
      family: "hexclave",
      headers: { ...unauthorized, overrideErrorStatus: "false" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-hexclave-actual-status")).toBe("401");
    expect(response.headers.get("x-stack-actual-status")).toBeNull();
  });

  it("answers the real status without the header", async () => {
    const response = await api(provider, "/", { headers: unauthorized });
    expect(response.status).toBe(401);
    expect(response.headers.get("x-stack-actual-status")).toBeNull();
    expect(response.headers.get("x-hexclave-actual-status")).toBeNull();
  });

  it("leaves successes and 5xx answers alone", async () => {
    const ok = await api(provider, "/", { headers: client({ overrideErrorStatus: "true" }) });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("x-stack-actual-status")).toBeNull();
    provider.faults.add({ path: "/projects/current", action: { type: "status", status: 503 } });
    const unavailable = await api(provider, "/projects/current", { headers: client({ overrideErrorStatus: "true" }) });
    expect(unavailable.status).toBe(503);
    expect(unavailable.headers.get("x-stack-actual-status")).toBeNull();
  });
});

describe("common response headers", () => {
  it("marks API answers, errors included, cache-control: no-store, max-age=0", async () => {
    expect((await api(provider, "/")).headers.get("cache-control")).toBe("no-store, max-age=0");
    expect((await api(provider, "/users", { headers: client() })).headers.get("cache-control")).toBe(
      "no-store, max-age=0",
    );
  });

  it("lets the JWKS keep its own public cache-control", async () => {
    const response = await api(provider, `/projects/${DEV.id}/.well-known/jwks.json`);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("sends a fresh request id on every answer, in the request's family only", async () => {
    const first = await api(provider, "/");
    const second = await api(provider, "/users", { headers: client() });
    const id = first.headers.get("x-stack-request-id");
    expect(id).toMatch(/^[0-9a-z]{24}$/);
    expect(first.headers.get("x-hexclave-request-id")).toBeNull();
    expect(second.headers.get("x-stack-request-id")).not.toBe(id);
    const rebrandedAnswer = await api(provider, "/users", { headers: client(), family: "hexclave" });
    expect(rebrandedAnswer.headers.get("x-hexclave-request-id")).toMatch(/^[0-9a-z]{24}$/);
    expect(rebrandedAnswer.headers.get("x-stack-request-id")).toBeNull();
  });

  it("pretty-prints known-error bodies with an indent of 2", async () => {
    const text = await (await api(provider, "/users", { headers: client() })).text();
    expect(text).toMatch(/^\{\n {2}"code": "INSUFFICIENT_ACCESS_TYPE",\n/);
  });
});

describe("CORS", () => {
  const requestHeaderKeys: HeaderKey[] = [
    "accessType",
    "projectId",
    "branchId",
    "clientVersion",
    "accessToken",
    "refreshToken",
    "publishableClientKey",
    "secretServerKey",
    "superSecretAdminKey",
    "adminAccessToken",
    "allowAnonymousUser",
    "allowRestrictedUser",
    "overrideErrorStatus",
    "randomNonce",
  ];

  it("answers a preflight OPTIONS with an empty 200 allowing both header families", async () => {
    const response = await request(provider, "/api/v1/users/me", {
      method: "OPTIONS",
      raw: { origin: "http://app.test", "access-control-request-method": "PATCH" },
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toBe("GET, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(response.headers.get("access-control-max-age")).toBe("86400");
    const allowed = (response.headers.get("access-control-allow-headers") ?? "").split(", ");
    expect(allowed).toEqual(expect.arrayContaining(["content-type", "authorization"]));
    for (const key of requestHeaderKeys) {
      expect(allowed).toContain(headerNames[key]);
      expect(allowed).toContain(rebranded(headerNames[key]));
    }
  });

  it("exposes the known-error and actual-status headers of both families", async () => {
    const exposed = (await api(provider, "/")).headers.get("access-control-expose-headers")?.split(", ");
    expect(exposed).toEqual(
      expect.arrayContaining([
        "x-stack-known-error",
        "x-hexclave-known-error",
        "x-stack-actual-status",
        "x-hexclave-actual-status",
      ]),
    );
  });
});

describe("routes outside the implemented set", () => {
  it("answers an unknown path with the plain-text 404 of the real service", async () => {
    const response = await api(provider, "/no-such-thing");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe(
      "404 — this page does not exist in Stack Auth's API.\n\nPlease see the API documentation at https://docs.stack-auth.com, " +
        `or visit the Stack Auth dashboard at https://app.stack-auth.com.\n\nURL: ${ORIGIN}/api/v1/no-such-thing`,
    );
  });

  it("implements every operation of the contract: none answers 501", () => {
    expect(operations.filter((o) => !(o.id in implementedRoutes)).map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it("answers an operation missing from the route table with a 501 JSON body naming it", async () => {
    const app = appWithoutRoutes(provider);
    const operation = operations.find((o) => o.id === "getMe")!;
    const response = await app.request(`${ORIGIN}/api/v1${operation.path}`, {
      headers: { "x-stack-override-error-status": "true" },
    });
    const body = await expectJson<{ error: string; operation_id: string }>(response, 501);
    expect(body.operation_id).toBe("getMe");
    expect(body.error).toContain("GET /api/v1/users/me");
    // A 5xx is not moved into x-stack-actual-status (protocol.md §2.2: only 4xx are).
    expect(response.headers.get("x-stack-actual-status")).toBeNull();
  });

  it("serves /health outside /api with permissive CORS", async () => {
    const response = await request(provider, "/health");
    expect(await expectJson(response)).toEqual({ status: "ok" });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });
});
