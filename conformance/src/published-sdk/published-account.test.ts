import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serveFakeProvider, type ServedProvider } from "../harness/serve.ts";
import { publishedApps } from "./published-apps.ts";

/**
 * What the published @stackframe/js (2.8.108) exposes of the account surfaces, unchanged against the fake over a real
 * port: contact channels with email verification (the code read from the outbox), active sessions, notification
 * categories, user and team API keys with the server's key lookup, password reset, and the admin's internal API keys.
 */
let served: ServedProvider;
beforeAll(async () => {
  served = await serveFakeProvider();
});
afterAll(async () => {
  await served.close();
});

const { clientApp, serverApp, adminApp } = publishedApps(() => served);

const PASSWORD = "password-123";
const CALLBACK = "http://localhost:3000/handler/callback";

async function signedUp(email: string) {
  const client = clientApp();
  const result = await client.signUpWithCredential({
    email,
    password: PASSWORD,
    noVerificationCallback: true,
    noRedirect: true,
  });
  expect(result.status).toBe("ok");
  return { client, user: await client.getUser({ or: "throw" }) };
}

describe("published @stackframe/js 2.8.108: account surfaces against the fake provider", () => {
  it("contact channels: list the primary one, create, verify by the emailed code, update and delete", async () => {
    const { client, user } = await signedUp("published-channels@example.com");
    expect((await user.listContactChannels()).map((c) => [c.value, c.isPrimary, c.usedForAuth, c.isVerified])).toEqual([
      ["published-channels@example.com", true, true, false],
    ]);
    const channel = await user.createContactChannel({
      value: "published-second@example.com",
      type: "email",
      usedForAuth: false,
    });
    expect(channel).toMatchObject({ value: "published-second@example.com", isPrimary: false, isVerified: false });

    await channel.sendVerificationEmail({ callbackUrl: CALLBACK });
    const email = await served.provider.outbox.waitFor({
      to: "published-second@example.com",
      kind: "email_verification",
    });
    expect((await client.verifyEmail(email.code!)).status).toBe("ok");
    expect((await user.listContactChannels()).find((c) => c.id === channel.id)?.isVerified).toBe(true);

    await channel.update({ usedForAuth: true });
    expect((await user.listContactChannels()).find((c) => c.id === channel.id)?.usedForAuth).toBe(true);
    await channel.delete();
    expect((await user.listContactChannels()).map((c) => c.id)).not.toContain(channel.id);
  });

  it("signs in with a second email once it is used for auth, as with the primary one", async () => {
    const { user } = await signedUp("published-first-auth@example.com");
    const second = await user.createContactChannel({
      value: "published-second-auth@example.com",
      type: "email",
      usedForAuth: false,
    });
    const signIn = () =>
      clientApp().signInWithCredential({
        email: "Published-Second-Auth@example.com",
        password: PASSWORD,
        noRedirect: true,
      });
    expect((await signIn()).status).toBe("error");
    await second.update({ usedForAuth: true });
    const other = clientApp();
    expect(
      (
        await other.signInWithCredential({
          email: "Published-Second-Auth@example.com",
          password: PASSWORD,
          noRedirect: true,
        })
      ).status,
    ).toBe("ok");
    expect((await other.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("active sessions: the current one is marked; another is revoked", async () => {
    const { user } = await signedUp("published-sessions@example.com");
    const other = clientApp();
    expect(
      (
        await other.signInWithCredential({
          email: "published-sessions@example.com",
          password: PASSWORD,
          noRedirect: true,
        })
      ).status,
    ).toBe("ok");
    const sessions = await user.getActiveSessions();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.isCurrentSession)).toHaveLength(1);
    expect(sessions[0]!.createdAt).toBeInstanceOf(Date);
    const otherSession = sessions.find((s) => !s.isCurrentSession)!;
    await user.revokeSession(otherSession.id);
    expect((await user.getActiveSessions()).map((s) => s.id)).toEqual(
      sessions.filter((s) => s.isCurrentSession).map((s) => s.id),
    );
  });

  it("notification categories: listed with canDisable, and Marketing turned off", async () => {
    const { user } = await signedUp("published-notifications@example.com");
    const categories = await user.listNotificationCategories();
    expect(categories.map((c) => [c.name, c.enabled, c.canDisable])).toEqual([
      ["Transactional", true, false],
      ["Marketing", true, true],
    ]);
    await categories.find((c) => c.name === "Marketing")!.setEnabled(false);
    expect((await user.listNotificationCategories()).find((c) => c.name === "Marketing")?.enabled).toBe(false);
  });

  it("user API keys: full value once, last four after; the server finds the user by key until it is revoked", async () => {
    const { user } = await signedUp("published-keys@example.com");
    const created = await user.createApiKey({ description: "published", expiresAt: null });
    expect(typeof created.value).toBe("string");
    const [listed] = await user.listApiKeys();
    expect(listed).toMatchObject({
      id: created.id,
      type: "user",
      value: { lastFour: (created.value as string).slice(-4) },
    });
    expect(listed!.isValid()).toBe(true);
    expect((await serverApp().getUser({ apiKey: created.value as string }))?.id).toBe(user.id);

    await listed!.revoke();
    const [revoked] = await user.listApiKeys();
    expect([revoked!.isValid(), revoked!.whyInvalid()]).toEqual([false, "manually-revoked"]);
    // A fresh server app: the published kit caches key lookups per app.
    expect(await serverApp().getUser({ apiKey: created.value as string })).toBeNull();
  });

  it("team API keys: made on a team the user created, and found by the server", async () => {
    const { user } = await signedUp("published-team-keys@example.com");
    const team = await user.createTeam({ displayName: "Key Team" });
    const created = await team.createApiKey({ description: "team key", expiresAt: null });
    expect(created).toMatchObject({ type: "team", teamId: team.id });
    expect((await team.listApiKeys()).map((k) => k.id)).toEqual([created.id]);
    expect((await serverApp().getTeam({ apiKey: created.value as string }))?.id).toBe(team.id);
  });

  it("password reset: the emailed code resets the password", async () => {
    await signedUp("published-reset@example.com");
    const client = clientApp();
    expect(
      (await client.sendForgotPasswordEmail("published-reset@example.com", { callbackUrl: CALLBACK })).status,
    ).toBe("ok");
    const email = await served.provider.outbox.waitFor({ to: "published-reset@example.com", kind: "password_reset" });
    expect((await client.verifyPasswordResetCode(email.code!)).status).toBe("ok");
    expect((await client.resetPassword({ code: email.code!, password: "published-new-password" })).status).toBe("ok");
    const signIn = await clientApp().signInWithCredential({
      email: "published-reset@example.com",
      password: "published-new-password",
      noRedirect: true,
    });
    expect(signIn.status).toBe("ok");
  });

  it("internal API keys: full values once, a working secret key, then revoked", async () => {
    const admin = adminApp();
    const created = await admin.createInternalApiKey({
      description: "published internal",
      expiresAt: new Date(Date.UTC(2100, 0, 1)),
      hasPublishableClientKey: true,
      hasSecretServerKey: true,
      hasSuperSecretAdminKey: false,
    });
    expect(typeof created.secretServerKey).toBe("string");
    expect(created.superSecretAdminKey).toBeUndefined();
    const listed = (await admin.listInternalApiKeys()).find((k) => k.id === created.id)!;
    expect(listed.secretServerKey).toEqual({ lastFour: created.secretServerKey!.slice(-4) });
    expect(listed.superSecretAdminKey).toBeNull();
    expect(listed.isValid()).toBe(true);

    const withNewKey = serverApp(created.secretServerKey!);
    expect(Array.isArray(await withNewKey.listUsers({ limit: 1 }))).toBe(true);
    await listed.revoke();
    const revoked = (await admin.listInternalApiKeys()).find((k) => k.id === created.id)!;
    expect([revoked.isValid(), revoked.whyInvalid()]).toEqual([false, "manually-revoked"]);
    await expect(serverApp(created.secretServerKey!).listUsers({ limit: 1 })).rejects.toThrow(
      /INVALID_SECRET_SERVER_KEY|secret server key/i,
    );
  });
});
