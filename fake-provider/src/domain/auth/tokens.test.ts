import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { seededRandom } from "@authsim/sdk/runtime";
import { webCryptoBackend } from "./crypto-backend.ts";
import {
  DEV,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../test-support/api.ts";

/**
 * Access tokens as compact ES256 JWS built by the emulator itself (tokens.ts), and the verified-token memo: a token is
 * verified once per signing key record, its expiry at every use.
 */

let provider: TestProvider;
beforeEach(() => {
  provider = newProvider();
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const me = (accessToken: string) => api(provider, "/users/me", { headers: client({ accessToken }) });

describe("access tokens", () => {
  it("carry a display name outside ASCII as UTF-8, and jose verifies them", async () => {
    const user = await signUp(provider);
    await api(provider, `/users/${user.user_id}`, {
      method: "PATCH",
      headers: server(),
      json: { display_name: "Zoë 🦊" },
    });
    const refreshed = await expectJson<{ access_token: string }>(
      await api(provider, "/auth/sessions/current/refresh", {
        method: "POST",
        headers: client({ refreshToken: user.refresh_token }),
      }),
    );
    const jwks = await expectJson<JSONWebKeySet>(await api(provider, `/projects/${DEV.id}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(refreshed.access_token, createLocalJWKSet(jwks), {
      currentDate: new Date(provider.clock.now()),
    });
    expect(payload.name).toBe("Zoë 🦊");
    expect((await expectJson<{ display_name: string }>(await me(refreshed.access_token))).display_name).toBe("Zoë 🦊");
  });

  it("once verified, still expire on the injected clock", async () => {
    const { access_token } = await signUp(provider);
    await expectJson(await me(access_token));
    await expectJson(await me(access_token));
    provider.clock.advance(600_000);
    await expectKnownError(await me(access_token), "ACCESS_TOKEN_EXPIRED", 401);
  });

  it("are refused once the state no longer holds their key, though verified before", async () => {
    const { access_token } = await signUp(provider);
    await expectJson(await me(access_token));
    // Another random source: the restored state has its own signing keys under other kids.
    const other = newProvider({ ids: seededRandom("another provider") });
    await signUp(other);
    provider.restore(other.snapshot());
    await expectKnownError(await me(access_token), "UNPARSABLE_ACCESS_TOKEN", 401);
  });

  it("refuse another text of the same signature (leftover bits set in its last character)", async () => {
    const { access_token } = await signUp(provider);
    await expectJson(await me(access_token));
    // 64 bytes take 86 characters whose last carries 4 unused bits: a different character can decode to the same bytes.
    const last = access_token.at(-1)!;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!;
    await expectKnownError(await me(access_token.slice(0, -1) + sibling), "UNPARSABLE_ACCESS_TOKEN", 401);
  });

  it("are refused with a header that names extensions (crit) or another algorithm", async () => {
    const { access_token } = await signUp(provider);
    const [, payload, signature] = access_token.split(".");
    for (const header of [{ alg: "ES256", kid: "x", crit: ["exp"] }, { alg: "none" }, { alg: "HS256", kid: "x" }]) {
      const encoded = Buffer.from(JSON.stringify(header)).toString("base64url");
      await expectKnownError(await me(`${encoded}.${payload}.${signature}`), "UNPARSABLE_ACCESS_TOKEN", 401);
    }
  });

  it("are signed after their transaction commits: a request waiting for its signature holds up no other", async () => {
    const backend = webCryptoBackend();
    const held: (() => void)[] = [];
    // A backend whose signatures wait until released, as a busy signing thread would.
    const slow = newProvider({
      crypto: {
        ...backend,
        signEs256: async (jwk, input) => {
          await new Promise<void>((resolve) => held.push(resolve));
          return backend.signEs256(jwk, input);
        },
      },
    });
    const signingUp = api(slow, "/auth/password/sign-up", {
      method: "POST",
      headers: client(),
      json: { email: "held@example.com", password: "long enough" },
    });
    while (held.length === 0) await new Promise((r) => setTimeout(r, 1));
    // The sign-up has committed: a write and a read of the same user go through while its token is being signed.
    const users = await expectJson<{ items: { primary_email: string; id: string }[] }>(
      await api(slow, "/users", { headers: server() }),
    );
    const made = users.items.find((u) => u.primary_email === "held@example.com")!;
    await expectJson(
      await api(slow, `/users/${made.id}`, { method: "PATCH", headers: server(), json: { display_name: "Held" } }),
    );
    held.shift()!();
    const { access_token } = await expectJson<{ access_token: string }>(await signingUp);
    const jwks = await expectJson<JSONWebKeySet>(await api(slow, `/projects/${DEV.id}/.well-known/jwks.json`));
    const { payload } = await jwtVerify(access_token, createLocalJWKSet(jwks), {
      currentDate: new Date(slow.clock.now()),
    });
    // Its claims are the user's as the sign-up left it (the rename came after).
    expect(payload).toMatchObject({ sub: made.id, email: "held@example.com", name: null });
    expect(slow.unexpected).toEqual([]);
  });
});
