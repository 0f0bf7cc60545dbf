import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { asClient, devSeedWith, opSeam } from "../../../test-support/op-seam.ts";
import { anonymousSignUp, passwordSignIn, passwordSignUp } from "./password-auth.ts";
import { refreshAccessToken } from "./sessions.ts";

/** The password and anonymous sign-up / sign-in rules (protocol.md §6.2, §7.1, §7.8), at the op's seam. */

const PASSWORD = "correct horse battery";

describe("password sign-up", () => {
  it("makes a user with an unverified, sign-in-enabled primary email and a password, and opens a session", async () => {
    const seam = opSeam();
    const out = await seam.ok(asClient(), (ctx) =>
      passwordSignUp(ctx, { email: "Ada@Example.com", password: PASSWORD }),
    );
    const user = seam.tables.users.get(out.user_id);
    // Stored normalized, as the real users handler stores every primary email.
    expect(user).toMatchObject({
      primaryEmail: "ada@example.com",
      primaryEmailVerified: false,
      primaryEmailAuthEnabled: true,
      isAnonymous: false,
    });
    expect(user?.passwordHash).toMatch(/^pbkdf2-sha256\$/);
    expect(seam.tables.sessions.lookup("refreshToken", out.refresh_token)?.userId).toBe(out.user_id);
  });

  it("applies the length rule to every length: under 8 PASSWORD_TOO_SHORT, over 70 PASSWORD_TOO_LONG, else a user", async () => {
    const seam = opSeam();
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 90 }), async (length) => {
        const password = "p".repeat(length);
        const signUp = (ctx: Parameters<typeof passwordSignUp>[0]) =>
          passwordSignUp(ctx, { email: `len${++n}@example.com`, password });
        if (length < 8)
          expect((await seam.refuses(asClient(), signUp, "PASSWORD_TOO_SHORT")).details).toEqual({ min_length: 8 });
        else if (length > 70)
          expect((await seam.refuses(asClient(), signUp, "PASSWORD_TOO_LONG")).details).toEqual({ maxLength: 70 });
        else expect((await seam.run(asClient(), signUp)).ok).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("refuses an address already used for sign-in, in any letter case, naming it normalized; nothing is written", async () => {
    const seam = opSeam();
    await seam.ok(asClient(), (ctx) => passwordSignUp(ctx, { email: "grace@example.com", password: PASSWORD }));
    const error = await seam.refuses(
      asClient(),
      (ctx) => passwordSignUp(ctx, { email: "Grace@EXAMPLE.com", password: "another password" }),
      "USER_EMAIL_ALREADY_EXISTS",
    );
    expect(error.details).toEqual({ email: "grace@example.com", would_work_if_email_was_verified: false });
    expect(error.messageFor("stack")).toBe('A user with email "grace@example.com" already exists.');
  });

  it("makes a new user when the caller is a normal signed-in user", async () => {
    const seam = opSeam();
    const first = await seam.addUser({ primary_email: "first@example.com" });
    const out = await seam.ok(asClient(first), (ctx) =>
      passwordSignUp(ctx, { email: "second@example.com", password: PASSWORD }),
    );
    expect(out.user_id).not.toBe(first.id);
    expect(seam.tables.users.get(first.id)?.primaryEmail).toBe("first@example.com");
  });

  it("upgrades the caller's anonymous user in place, keeping its id, and its old session now refreshes the upgraded user", async () => {
    const seam = opSeam();
    const anon = await seam.ok(asClient(), (ctx) => anonymousSignUp(ctx));
    const anonUser = seam.tables.users.get(anon.user_id)!;
    const usersBefore = seam.tables.users.size;
    const upgraded = await seam.ok(asClient(anonUser), (ctx) =>
      passwordSignUp(ctx, { email: "up@example.com", password: PASSWORD }),
    );
    expect(upgraded.user_id).toBe(anon.user_id);
    expect(seam.tables.users.get(anon.user_id)).toMatchObject({
      isAnonymous: false,
      primaryEmail: "up@example.com",
      primaryEmailAuthEnabled: true,
    });
    expect(seam.tables.users.size).toBe(usersBefore);
    await seam.ok((ctx) => refreshAccessToken(ctx, anonUser.projectId, anon.refresh_token));
    expect(
      (await seam.run(asClient(), (ctx) => passwordSignIn(ctx, { email: "up@example.com", password: PASSWORD }))).ok,
    ).toBe(true);
  });
});

describe("password sign-in", () => {
  it("signs the user in by their address in any letter case, in a new session, and marks them active now", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "Linus@Example.com", password: PASSWORD });
    seam.clock.advance(60_000);
    const out = await seam.ok(asClient(), (ctx) =>
      passwordSignIn(ctx, { email: "linus@example.com", password: PASSWORD }),
    );
    expect(out.user_id).toBe(user.id);
    expect(seam.tables.users.get(user.id)?.lastActiveAtMillis).toBe(seam.clock.now());
    expect(seam.tables.sessions.lookup("refreshToken", out.refresh_token)).toMatchObject({
      userId: user.id,
      createdAtMillis: seam.clock.now(),
    });
  });

  it("answers the same EMAIL_PASSWORD_MISMATCH for a wrong password, an unknown address and a user without a password", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "has@example.com", password: PASSWORD });
    await seam.addUser({ primary_email: "none@example.com", primary_email_auth_enabled: true });
    for (const [email, password] of [
      ["has@example.com", "wrong password"],
      ["nobody@example.com", PASSWORD],
      ["none@example.com", PASSWORD],
    ] as const) {
      await seam.refuses(asClient(), (ctx) => passwordSignIn(ctx, { email, password }), "EMAIL_PASSWORD_MISMATCH");
    }
  });

  it("does not find a user whose address is not used for sign-in", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "contact@example.com", primary_email_auth_enabled: false, password: PASSWORD });
    await seam.refuses(
      asClient(),
      (ctx) => passwordSignIn(ctx, { email: "contact@example.com", password: PASSWORD }),
      "EMAIL_PASSWORD_MISMATCH",
    );
  });
});

describe("project configuration", () => {
  it("closed sign-up refuses password sign-up with SIGN_UP_NOT_ENABLED but still makes anonymous users and signs existing users in", async () => {
    const seam = opSeam({ seed: devSeedWith({ sign_up_enabled: false }) });
    await seam.refuses(
      asClient(),
      (ctx) => passwordSignUp(ctx, { email: "new@example.com", password: PASSWORD }),
      "SIGN_UP_NOT_ENABLED",
    );
    // An untrusted verification link is refused first, as the real handler checks it before sign-up being open.
    await seam.refuses(
      asClient(),
      (ctx) =>
        passwordSignUp(ctx, {
          email: "new@example.com",
          password: PASSWORD,
          verification_callback_url: "https://evil.example.net/verify",
        }),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
    expect((await seam.run(asClient(), (ctx) => anonymousSignUp(ctx))).ok).toBe(true);
    await seam.addUser({ primary_email: "made@example.com", password: PASSWORD });
    expect(
      (await seam.run(asClient(), (ctx) => passwordSignIn(ctx, { email: "made@example.com", password: PASSWORD }))).ok,
    ).toBe(true);
  });

  it("without password auth refuses sign-up (before the password rules) and sign-in with PASSWORD_AUTHENTICATION_NOT_ENABLED", async () => {
    const seam = opSeam({ seed: devSeedWith({ credential_enabled: false }) });
    await seam.refuses(
      asClient(),
      (ctx) => passwordSignUp(ctx, { email: "a@example.com", password: "short" }),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
    await seam.refuses(
      asClient(),
      (ctx) => passwordSignIn(ctx, { email: "a@example.com", password: PASSWORD }),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
  });

  it("without anonymous accounts refuses anonymous sign-up with ANONYMOUS_ACCOUNTS_NOT_ENABLED", async () => {
    const seam = opSeam({ seed: devSeedWith({ anonymous_enabled: false }) });
    await seam.refuses(asClient(), (ctx) => anonymousSignUp(ctx), "ANONYMOUS_ACCOUNTS_NOT_ENABLED");
  });

  it("with sign-up closed, upgrading an anonymous user is a sign-up and is refused, leaving the user anonymous", async () => {
    const seam = opSeam({ seed: devSeedWith({ sign_up_enabled: false }) });
    const anon = await seam.ok(asClient(), (ctx) => anonymousSignUp(ctx));
    const anonUser = seam.tables.users.get(anon.user_id)!;
    await seam.refuses(
      asClient(anonUser),
      (ctx) => passwordSignUp(ctx, { email: "up@example.com", password: PASSWORD }),
      "SIGN_UP_NOT_ENABLED",
    );
    expect(seam.tables.users.get(anon.user_id)?.isAnonymous).toBe(true);
  });
});
