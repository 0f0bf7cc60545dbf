import { decodeJwt } from "jose";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { StackClientApp, StackServerApp } from "@authsim/sdk";
import { fakeProviderHandlers } from "./handlers.ts";

/**
 * The emulator behind msw's setupServer, as an app's own tests would use it: our SDK is configured with a provider URL
 * that does not resolve and no custom fetch, so every call goes through the global fetch that msw intercepts.
 */
const BASE_URL = "https://api.stack-auth.test";
const handlers = fakeProviderHandlers({
  baseUrl: BASE_URL,
  providerOptions: { fixedOtp: [{ pattern: "*@otp.test", code: "246810" }] },
});
const provider = handlers.provider;
const server = setupServer(...handlers);

const clientApp = () =>
  new StackClientApp({
    baseUrl: BASE_URL,
    projectId: dev.id,
    publishableClientKey: dev.keys.publishable_client_key,
    tokenStore: "memory",
  });
const serverApp = () =>
  new StackServerApp({
    baseUrl: BASE_URL,
    projectId: dev.id,
    secretServerKey: dev.keys.secret_server_key,
    tokenStore: "memory",
  });
const PASSWORD = "correct horse battery";

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => provider.reset());
afterAll(() => server.close());

describe("fakeProviderHandlers with msw/node", () => {
  it("signs up, reads the user and signs in again with the SDK's default fetch", async () => {
    const app = clientApp();
    expect(
      await app.signUpWithCredential({
        email: "ada@example.com",
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      }),
    ).toEqual({ status: "ok", data: undefined });
    const user = await app.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe("ada@example.com");
    // Issued for the URL the app calls, so an SDK that checks the issuer accepts the token.
    expect(decodeJwt((await app.getAccessToken())!).iss).toBe(`${BASE_URL}/api/v1/projects/${dev.id}`);
    await app.signOut();
    expect(await app.getUser()).toBeNull();
    expect(await app.signInWithCredential({ email: "ada@example.com", password: PASSWORD, noRedirect: true })).toEqual({
      status: "ok",
      data: undefined,
    });
    expect((await app.getUser())?.id).toBe(user.id);
  });

  it("lets a server app list the users the client made", async () => {
    const app = clientApp();
    await app.signUpWithCredential({
      email: "grace@example.com",
      password: PASSWORD,
      noVerificationCallback: true,
      noRedirect: true,
    });
    const users = await serverApp().listUsers();
    expect(users.map((u) => u.primaryEmail)).toContain("grace@example.com");
    expect(provider.requestLog.list({ path: "/users" }).map((e) => e.status)).toContain(200);
  });

  it("signs in with a magic link whose OTP is fixed for the address", async () => {
    const app = clientApp();
    const sent = await app.sendMagicLinkEmail("linus@otp.test", {
      callbackUrl: "http://localhost:3000/handler/magic-link-callback",
    });
    if (sent.status !== "ok") throw new Error(`sendMagicLinkEmail failed: ${sent.error.code}`);
    expect(provider.outbox.latest({ to: "linus@otp.test" })?.otp).toBe("246810");
    expect(await app.signInWithMagicLink(`246810${sent.data.nonce}`, { noRedirect: true })).toEqual({
      status: "ok",
      data: undefined,
    });
    expect((await app.getUser())?.primaryEmail).toBe("linus@otp.test");
  });

  it("applies fault rules: a forced known error reaches the SDK as that error", async () => {
    const app = clientApp();
    await app.signUpWithCredential({
      email: "ken@example.com",
      password: PASSWORD,
      noVerificationCallback: true,
      noRedirect: true,
    });
    await app.signOut();
    provider.faults.add({
      path: "/auth/password/sign-in",
      action: { type: "known-error", code: "EMAIL_PASSWORD_MISMATCH" },
    });
    const refused = await app.signInWithCredential({ email: "ken@example.com", password: PASSWORD, noRedirect: true });
    expect(refused.status === "error" && refused.error.code).toBe("EMAIL_PASSWORD_MISMATCH");
    // The rule fired once (times defaults to 1): the next attempt goes through.
    expect(
      (await app.signInWithCredential({ email: "ken@example.com", password: PASSWORD, noRedirect: true })).status,
    ).toBe("ok");
  });

  it("turns a dropped connection into a network error, and reaches the control endpoints too", async () => {
    provider.faults.add({ path: "/users/me", action: { type: "drop" } });
    await expect(fetch(`${BASE_URL}/api/v1/users/me`)).rejects.toThrow(TypeError);
    const health = await fetch(`${BASE_URL}/health`);
    expect(await health.json()).toEqual({ status: "ok" });
    const outbox = await fetch(`${BASE_URL}/__emulator/outbox`);
    expect(await outbox.json()).toEqual({ items: [], dropped: 0 });
  });

  it("refuses a base URL that names /api/v1", () => {
    expect(() => fakeProviderHandlers({ baseUrl: `${BASE_URL}/api/v1` })).toThrow(/without \/api\/v1/);
  });
});
