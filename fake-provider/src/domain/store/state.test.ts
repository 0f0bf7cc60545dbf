import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ConcreteKnownErrorCode } from "@authsim/sdk/contract";
import {
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  refreshGrant,
  server,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";

/** State rules (design.md): a refused request leaves no trace; snapshot/restore gives back the exact state. */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const EMAILS = ["ada@example.com", "ADA@example.com", "grace@example.com", "Grace@Example.COM", "linus@example.com"];
const password = fc.oneof(
  fc.string({ maxLength: 7 }),
  fc.string({ minLength: 8, maxLength: 70 }),
  fc.string({ minLength: 71, maxLength: 90 }),
);
const command = fc.oneof(
  fc.record({ kind: fc.constant("signUp" as const), email: fc.constantFrom(...EMAILS), password }),
  fc.record({ kind: fc.constant("signIn" as const), email: fc.constantFrom(...EMAILS), knownPassword: fc.boolean() }),
  fc.record({ kind: fc.constant("badJson" as const) }),
  fc.record({ kind: fc.constant("unknownKey" as const), email: fc.constantFrom(...EMAILS) }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

/** The outcome the rules predict, from a model of the registered emails (lower-cased) and their passwords. */
function predict(
  model: Map<string, string>,
  cmd: Command,
): { status: number; code?: ConcreteKnownErrorCode; password?: string } {
  switch (cmd.kind) {
    case "signUp":
      if (cmd.password.length < 8) return { status: 400, code: "PASSWORD_TOO_SHORT" };
      if (cmd.password.length > 70) return { status: 400, code: "PASSWORD_TOO_LONG" };
      if (model.has(cmd.email.toLowerCase())) return { status: 409, code: "USER_EMAIL_ALREADY_EXISTS" };
      return { status: 200 };
    case "signIn": {
      const known = model.get(cmd.email.toLowerCase());
      const attempt = cmd.knownPassword && known !== undefined ? known : "not the password";
      return known === attempt
        ? { status: 200, password: attempt }
        : { status: 400, code: "EMAIL_PASSWORD_MISMATCH", password: attempt };
    }
    case "badJson":
      return { status: 400, code: "BODY_PARSING_ERROR" };
    case "unknownKey":
      return { status: 400, code: "SCHEMA_ERROR" };
  }
}

function send(p: TestProvider, cmd: Command, signInPassword: string | undefined): Promise<Response> {
  const headers = client();
  switch (cmd.kind) {
    case "signUp":
      return api(p, "/auth/password/sign-up", { headers, json: { email: cmd.email, password: cmd.password } });
    case "signIn":
      return api(p, "/auth/password/sign-in", { headers, json: { email: cmd.email, password: signInPassword } });
    case "badJson":
      return api(p, "/auth/password/sign-up", {
        headers,
        body: '{"email": "ada@example.com", ',
        contentType: "application/json",
      });
    case "unknownKey":
      return api(p, "/auth/password/sign-up", {
        headers,
        json: { email: cmd.email, password: "long enough", extra: true },
      });
  }
}

describe("refused requests", () => {
  it("leave the store exactly as it was, for any sequence of sign-ups and sign-ins", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands) => {
        const p = newProvider();
        const model = new Map<string, string>();
        for (const cmd of commands) {
          const expected = predict(model, cmd);
          const before = p.snapshot().store;
          const response = await send(p, cmd, expected.password);
          const after = p.snapshot().store;
          if (expected.code) {
            await expectKnownError(response, expected.code, expected.status);
            expect(after).toEqual(before);
          } else {
            await expectJson(response, expected.status);
            expect(after).not.toEqual(before);
            if (cmd.kind === "signUp") model.set(cmd.email.toLowerCase(), cmd.password);
          }
        }
        expect(p.unexpected).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it("rolls back writes made before the failure inside one request", async () => {
    const user = await signUp(provider);
    const other = await signUp(provider);
    const before = provider.snapshot().store;
    // The password is hashed and the record built before the email clash is found.
    const response = await api(provider, `/users/${other.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { password: "another password", display_name: "Changed", primary_email: user.email },
    });
    await expectKnownError(response, "USER_EMAIL_ALREADY_EXISTS", 409);
    expect(provider.snapshot().store).toEqual(before);
  });
});

describe("concurrent requests", () => {
  it("run one at a time: two simultaneous sign-ups with one email yield one user and one USER_EMAIL_ALREADY_EXISTS", async () => {
    const attempt = (email: string) =>
      api(provider, "/auth/password/sign-up", { headers: client(), json: { email, password: "long enough" } });
    const responses = await Promise.all([attempt("twin@example.com"), attempt("TWIN@example.com")]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(provider.store.read.users.size).toBe(1);
  });
});

describe("snapshot and restore", () => {
  it("gives back the exact earlier state, and tokens minted before the snapshot still work", async () => {
    const ada = await signUp(provider);
    const saved = provider.snapshot();
    const grace = await signUp(provider);
    await api(provider, "/users/me", {
      method: "PATCH",
      headers: client({ accessToken: ada.access_token }),
      json: { display_name: "Changed" },
    });
    provider.clock.advance(5_000);
    expect(provider.snapshot()).not.toEqual(saved);

    provider.restore(saved);
    expect(provider.snapshot()).toEqual(saved);
    const me = await expectJson(
      await api(provider, "/users/me", { headers: client({ accessToken: ada.access_token }) }),
    );
    expect(me).toMatchObject({ id: ada.user_id, display_name: null });
    await expectJson(await refreshGrant(provider, ada.refresh_token));
    const signIn = await api(provider, "/auth/password/sign-in", {
      headers: client(),
      json: { email: grace.email, password: grace.password },
    });
    await expectKnownError(signIn, "EMAIL_PASSWORD_MISMATCH", 400);
    await expectKnownError(
      await refreshGrant(provider, grace.refresh_token),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
      401,
    );
  });

  it("is a deep copy: later changes do not leak into a taken snapshot", async () => {
    await signUp(provider);
    const saved = provider.snapshot();
    const copy = structuredClone(saved);
    await signUp(provider);
    expect(saved).toEqual(copy);
  });
});

describe("control endpoints", () => {
  const control = (path: string, init: { method?: string; json?: unknown; body?: string } = {}) =>
    provider.fetch(`http://localhost:8102/__emulator${path}`, {
      method: init.method ?? (init.json !== undefined || init.body !== undefined ? "POST" : "GET"),
      headers: { "content-type": "application/json" },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });

  it("POST /__emulator/reset forgets users and sessions but keeps the seeded projects and keys", async () => {
    const user = await signUp(provider);
    provider.clock.advance(10_000);
    expect(await expectJson(await control("/reset", { method: "POST" }))).toEqual({ success: true });
    expect(provider.store.read.users.size).toBe(0);
    expect(provider.store.read.sessions.size).toBe(0);
    expect(provider.clock.state()).toEqual({ offsetMillis: 0, frozenAtMillis: null });
    await expectKnownError(await refreshGrant(provider, user.refresh_token), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", 401);
    await signUp(provider, { email: user.email });
  });

  it("POST /__emulator/clock/advance moves the provider's clock, expiring access tokens", async () => {
    const user = await signUp(provider);
    const before = provider.clock.now();
    const body = await expectJson<{ now_millis: number; frozen: boolean }>(
      await control("/clock/advance", { json: { millis: 601_000 } }),
    );
    expect(body).toEqual({ now_millis: before + 601_000, frozen: false });
    await expectKnownError(
      await api(provider, "/users/me", { headers: client({ accessToken: user.access_token }) }),
      "ACCESS_TOKEN_EXPIRED",
      401,
    );
  });

  it("refuses a negative or malformed clock advance with 400", async () => {
    expect((await control("/clock/advance", { json: { millis: -1 } })).status).toBe(400);
    expect((await control("/clock/advance", { body: "{" })).status).toBe(400);
    expect((await control("/clock/advance", { json: { millis: 1, extra: 1 } })).status).toBe(400);
  });

  it("GET /__emulator/snapshot then POST /__emulator/restore round-trips the state over HTTP", async () => {
    const ada = await signUp(provider);
    const saved: unknown = await expectJson(await control("/snapshot"));
    await signUp(provider);
    provider.clock.advance(60_000);
    expect(await expectJson(await control("/restore", { json: saved }))).toEqual({ success: true });
    expect(JSON.parse(JSON.stringify(provider.snapshot()))).toEqual(saved);
    await expectJson(await api(provider, "/users/me", { headers: client({ accessToken: ada.access_token }) }));
  });

  it("refuses a malformed snapshot with 400 and keeps the state", async () => {
    await signUp(provider);
    const before = provider.snapshot();
    expect((await control("/restore", { json: { store: { version: 99, tables: {} } } })).status).toBe(400);
    expect(provider.snapshot()).toEqual(before);
  });
});
