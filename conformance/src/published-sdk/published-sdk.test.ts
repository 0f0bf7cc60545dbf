import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StackClientApp, StackServerApp } from "@stackframe/js";
import { devProjectSeed as dev } from "@authsim/fixtures";
import { serveFakeProvider, type ServedProvider } from "../harness/serve.ts";

/**
 * The published @stackframe/js (exact-pinned 2.8.108) must work unchanged against the fake provider over a real port:
 * it sends x-hexclave-* headers, validates every access-token claim and refreshes through the OAuth token endpoint.
 */
let served: ServedProvider;
beforeAll(async () => {
  served = await serveFakeProvider();
});
afterAll(async () => {
  await served.close();
});

// The published options type wants env-derived literals; these are the documented constructor options.
type ClientOptions = ConstructorParameters<typeof StackClientApp>[0];
type ServerOptions = ConstructorParameters<typeof StackServerApp>[0];

function clientApp(tokenStore: unknown = "memory") {
  return new StackClientApp({
    baseUrl: served.baseUrl,
    projectId: dev.id,
    publishableClientKey: dev.keys.publishable_client_key,
    tokenStore,
    noAutomaticPrefetch: true,
    analytics: { enabled: false },
  } as ClientOptions);
}

function serverApp() {
  return new StackServerApp({
    baseUrl: served.baseUrl,
    projectId: dev.id,
    publishableClientKey: dev.keys.publishable_client_key,
    secretServerKey: dev.keys.secret_server_key,
    tokenStore: "memory",
    noAutomaticPrefetch: true,
    analytics: { enabled: false },
  } as ServerOptions);
}

describe("published @stackframe/js 2.8.108 against the fake provider", () => {
  it("signs up, reads and updates the user, signs in again and signs out", async () => {
    const client = clientApp();
    const signUp = await client.signUpWithCredential({
      email: "published@example.com",
      password: "password-123",
      noVerificationCallback: true,
      noRedirect: true,
    });
    expect(signUp.status).toBe("ok");

    const user = await client.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe("published@example.com");
    expect(user.hasPassword).toBe(true);
    expect(user.isAnonymous).toBe(false);

    await user.update({ displayName: "Published SDK", clientMetadata: { plan: "free" } });
    const updated = await client.getUser({ or: "throw" });
    expect(updated.displayName).toBe("Published SDK");
    expect(updated.clientMetadata).toEqual({ plan: "free" });

    const again = clientApp();
    const signIn = await again.signInWithCredential({
      email: "published@example.com",
      password: "password-123",
      noRedirect: true,
    });
    expect(signIn.status).toBe("ok");
    expect((await again.getUser())?.id).toBe(user.id);

    await user.signOut();
    expect(await client.getUser()).toBeNull();
    // The other session is untouched by this sign-out.
    expect((await again.getUser())?.id).toBe(user.id);
  });

  it("reports a wrong password as the EMAIL_PASSWORD_MISMATCH known error", async () => {
    const client = clientApp();
    const result = await client.signInWithCredential({
      email: "nobody@example.com",
      password: "password-123",
      noRedirect: true,
    });
    expect(result.status).toBe("error");
    if (result.status === "error") expect(result.error.errorCode).toBe("EMAIL_PASSWORD_MISMATCH");
  });

  it("refreshes a missing access token through the token endpoint", async () => {
    const first = clientApp();
    await first.signUpWithCredential({
      email: "refresh@example.com",
      password: "password-123",
      noVerificationCallback: true,
      noRedirect: true,
    });
    const refreshToken = await first.getRefreshToken();
    expect(refreshToken).toMatch(/^[0-9a-z]{45}$/);

    const before = served.requests.length;
    const resumed = clientApp({ accessToken: "", refreshToken });
    const user = await resumed.getUser({ or: "throw" });
    expect(user.primaryEmail).toBe("refresh@example.com");
    const token = served.requests.slice(before).find((r) => r.path === "/api/v1/auth/oauth/token");
    expect(token?.status).toBe(200);
  });

  it("treats a revoked refresh token as signed out", async () => {
    const first = clientApp();
    await first.signUpWithCredential({
      email: "revoked@example.com",
      password: "password-123",
      noVerificationCallback: true,
      noRedirect: true,
    });
    const refreshToken = await first.getRefreshToken();
    await (await first.getUser({ or: "throw" })).signOut();
    const resumed = clientApp({ accessToken: "", refreshToken });
    expect(await resumed.getUser()).toBeNull();
  });

  it("creates, lists, reads, updates and deletes users as a server", async () => {
    const server = serverApp();
    const created = await server.createUser({
      primaryEmail: "server-made@example.com",
      password: "password-123",
      primaryEmailAuthEnabled: true,
      displayName: "Made",
      serverMetadata: { plan: "pro" },
    });
    expect(created.serverMetadata).toEqual({ plan: "pro" });
    const listed = await server.listUsers({ query: "server-made" });
    expect(listed.map((u) => u.id)).toContain(created.id);
    const read = await server.getUser(created.id);
    expect(read?.displayName).toBe("Made");
    await read!.update({ displayName: "Renamed" });
    expect((await server.getUser(created.id))?.displayName).toBe("Renamed");
    await read!.delete();
    expect(await server.getUser(created.id)).toBeNull();
  });

  it("reads the project's client view", async () => {
    const project = await clientApp().getProject();
    expect(project.id).toBe(dev.id);
    expect(project.config.signUpEnabled).toBe(true);
    expect(project.config.credentialEnabled).toBe(true);
  });
});
