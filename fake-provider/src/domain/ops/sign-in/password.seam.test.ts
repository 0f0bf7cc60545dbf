import { describe, expect, it } from "vitest";
import { SEND_RESET_CODE_ANSWER } from "@authsim/sdk/contract";
import { asClient, devSeedWith, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { checkResetCode, resetPassword, sendResetCode, setPassword, updatePassword } from "./password.ts";
import { passwordSignIn } from "./password-auth.ts";
import { deleteUser } from "../users/users.ts";

/** Password reset, update and set (spec §4 "Password reset"; protocol.md §6.2, §7.3), at the ops' seam. */

const CALLBACK = "http://localhost:3000/handler/password-reset";
const PASSWORD = "correct horse battery";

const signsIn = async (seam: OpSeam, email: string, password: string) =>
  (await seam.run(asClient(), (ctx) => passwordSignIn(ctx, { email, password }))).ok;
const resetMails = (seam: OpSeam, to: string) =>
  [...seam.tables.emails.values()].filter((e) => e.kind === "password_reset" && e.to.includes(to));

async function sentReset(seam: OpSeam, email: string): Promise<string> {
  expect(await seam.ok((ctx) => sendResetCode(ctx, seam.project(), { email, callback_url: CALLBACK }))).toEqual({
    success: SEND_RESET_CODE_ANSWER,
  });
  return resetMails(seam, email).at(-1)!.code!;
}

describe("password reset", () => {
  it("emails a link whose code checks without being used, then sets the new password once", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "r@example.com", password: PASSWORD });
    const code = await sentReset(seam, "r@example.com");
    expect(resetMails(seam, "r@example.com").at(-1)?.link).toBe(`${CALLBACK}?code=${code}`);
    await seam.ok((ctx) => checkResetCode(ctx, seam.project(), code));
    await seam.ok((ctx) => resetPassword(ctx, seam.project(), { code, password: "a brand new password" }));
    expect([
      await signsIn(seam, "r@example.com", PASSWORD),
      await signsIn(seam, "r@example.com", "a brand new password"),
    ]).toEqual([false, true]);
    await seam.refuses(
      (ctx) => resetPassword(ctx, seam.project(), { code, password: "yet another one" }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("ends every session of the user, as a new password set through the users update does", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "r@example.com", password: PASSWORD });
    const session = await seam.signIn(user);
    const code = await sentReset(seam, "r@example.com");
    await seam.ok((ctx) => resetPassword(ctx, seam.project(), { code, password: "a brand new password" }));
    expect(seam.tables.sessions.has(session.sessionId!)).toBe(false);
  });

  it("checks the code before whether password sign-in is on; check-code asks only about the code", async () => {
    const off = opSeam({ seed: devSeedWith({ credential_enabled: false }) });
    await off.refuses(
      (ctx) => resetPassword(ctx, off.project(), { code: "a".repeat(45), password: "long enough" }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    await off.refuses((ctx) => checkResetCode(ctx, off.project(), "a".repeat(45)), "VERIFICATION_CODE_NOT_FOUND");
  });

  it("answers the same for an address nobody signs in with, and sends nothing", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "contact-only@example.com", primary_email_auth_enabled: false });
    for (const email of ["nobody@example.com", "contact-only@example.com"]) {
      expect(await seam.ok((ctx) => sendResetCode(ctx, seam.project(), { email, callback_url: CALLBACK }))).toEqual({
        success: SEND_RESET_CODE_ANSWER,
      });
      expect(resetMails(seam, email)).toEqual([]);
    }
  });

  it("a password breaking a rule leaves the code spent, as the real service spends it before looking at the password", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "r@example.com", password: PASSWORD });
    const code = await sentReset(seam, "r@example.com");
    expect(
      (
        await seam.refusesSpendingCode(
          (ctx) => resetPassword(ctx, seam.project(), { code, password: "short" }),
          "PASSWORD_TOO_SHORT",
        )
      ).details,
    ).toEqual({ min_length: 8 });
    await seam.refuses(
      (ctx) => resetPassword(ctx, seam.project(), { code, password: "long enough now" }),
      "VERIFICATION_CODE_ALREADY_USED",
    );
  });

  it("a code lives one hour by the clock; an unknown code, or one whose user was deleted since, is VERIFICATION_CODE_NOT_FOUND", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "r@example.com", password: PASSWORD });
    const code = await sentReset(seam, "r@example.com");
    seam.clock.advance(3_600_000 - 1);
    await seam.ok((ctx) => checkResetCode(ctx, seam.project(), code));
    seam.clock.advance(1);
    await seam.refuses((ctx) => checkResetCode(ctx, seam.project(), code), "VERIFICATION_CODE_EXPIRED");
    await seam.refuses(
      (ctx) => resetPassword(ctx, seam.project(), { code: "a".repeat(45), password: "long enough" }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    const fresh = await sentReset(seam, "r@example.com");
    await seam.ok((ctx) => deleteUser(ctx, ctx.tables.users.get(user.id)!));
    await seam.refusesSpendingCode(
      (ctx) => resetPassword(ctx, seam.project(), { code: fresh, password: "long enough" }),
      "VERIFICATION_CODE_NOT_FOUND",
    );
  });

  it("refuses an untrusted callback whoever the address belongs to, and a project without passwords", async () => {
    const seam = opSeam();
    await seam.addUser({ primary_email: "r@example.com", password: PASSWORD });
    for (const email of ["r@example.com", "nobody@example.com"]) {
      await seam.refuses(
        (ctx) => sendResetCode(ctx, seam.project(), { email, callback_url: "https://evil.example.net/reset" }),
        "REDIRECT_URL_NOT_WHITELISTED",
      );
    }
    const off = opSeam({ seed: devSeedWith({ credential_enabled: false }) });
    await off.refuses(
      (ctx) => sendResetCode(ctx, off.project(), { email: "r@example.com", callback_url: CALLBACK }),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
  });
});

describe("password update", () => {
  it("changes the password when the old one is right, ending the user's other sessions but not the current one", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "u@example.com", password: PASSWORD });
    const current = await seam.signIn(user);
    const other = await seam.signIn(user);
    await seam.ok((ctx) =>
      updatePassword(ctx, seam.project(), ctx.tables.users.get(user.id)!, current.sessionId!, {
        old_password: PASSWORD,
        new_password: "the next password",
      }),
    );
    expect([seam.tables.sessions.has(current.sessionId!), seam.tables.sessions.has(other.sessionId!)]).toEqual([
      true,
      false,
    ]);
    expect(await signsIn(seam, "u@example.com", "the next password")).toBe(true);
  });

  it("refuses a wrong old password, a new one breaking the rules, and a user without a password, changing nothing", async () => {
    const seam = opSeam();
    const user = await seam.addUser({ primary_email: "u@example.com", password: PASSWORD });
    const update =
      (old_password: string, new_password: string, id = user.id) =>
      (ctx: Parameters<typeof updatePassword>[0]) =>
        updatePassword(ctx, seam.project(), ctx.tables.users.get(id)!, null, { old_password, new_password });
    expect(
      (
        await seam.refuses(update("not the password", "the next password"), "PASSWORD_CONFIRMATION_MISMATCH")
      ).messageFor("stack"),
    ).toBe("Passwords do not match.");
    expect((await seam.refuses(update(PASSWORD, "x".repeat(71)), "PASSWORD_TOO_LONG")).details).toEqual({
      maxLength: 70,
    });
    const passwordless = await seam.addUser({ primary_email: "p@example.com" });
    await seam.refuses(update("whatever", "the next password", passwordless.id), "USER_DOES_NOT_HAVE_PASSWORD");
    // The real handler's order: the new password's rules before whether there is a password to change.
    await seam.refuses(update("whatever", "short", passwordless.id), "PASSWORD_TOO_SHORT");
  });

  it("is refused in a project without password sign-in before anything else is looked at", async () => {
    const off = opSeam({ seed: devSeedWith({ credential_enabled: false }) });
    const user = await off.addUser({ primary_email: "u@example.com" });
    await off.refuses(
      (ctx) =>
        updatePassword(ctx, off.project(), ctx.tables.users.get(user.id)!, null, {
          old_password: "whatever",
          new_password: "short",
        }),
      "PASSWORD_AUTHENTICATION_NOT_ENABLED",
    );
  });
});

describe("password set", () => {
  it("gives a password to a user without one; refuses one who has one (plain 400) and short passwords", async () => {
    const seam = opSeam();
    const without = await seam.addUser({ primary_email: "s@example.com", primary_email_auth_enabled: true });
    await seam.refuses(
      (ctx) => setPassword(ctx, seam.project(), ctx.tables.users.get(without.id)!, "short"),
      "PASSWORD_TOO_SHORT",
    );
    await seam.ok((ctx) => setPassword(ctx, seam.project(), ctx.tables.users.get(without.id)!, "a first password"));
    expect(await signsIn(seam, "s@example.com", "a first password")).toBe(true);
    expect(
      (
        await seam.refuses(
          (ctx) => setPassword(ctx, seam.project(), ctx.tables.users.get(without.id)!, "another password"),
          400,
        )
      ).message,
    ).toBe("User already has a password set.");
  });
});
