import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { clientApp, PASSWORD, signedUpClient, uniqueEmail } from "./support.ts";

/**
 * Email + password sign-up and sign-in through the SDK (spec §7 Auth, §8 Users; protocol.md §7.1): expected failures
 * come back as error results carrying the catalogue's code and status.
 */
export function passwordAuthCases(getTarget: () => Target): void {
  describe("password auth", () => {
    it("signs up with a credential; getUser has the email and hasPassword", async () => {
      const target = getTarget();
      const app = clientApp(target);
      const email = uniqueEmail("sign-up");
      const result = await app.signUpWithCredential({
        email,
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      expect(result).toEqual({ status: "ok", data: undefined });

      const user = await app.getUser({ or: "throw" });
      expect(user.primaryEmail).toBe(email);
      expect(user.hasPassword).toBe(true);
      expect(user.isAnonymous).toBe(false);
      expect(user.primaryEmailVerified).toBe(false);
      expect(await app.getRefreshToken()).toMatch(/^\S+$/);
    });

    it("returns USER_EMAIL_ALREADY_EXISTS (409) as an error result for a taken email, and keeps the first user", async () => {
      const target = getTarget();
      const { email, userId } = await signedUpClient(target);
      const second = clientApp(target);
      const result = await second.signUpWithCredential({
        email,
        password: "another-password",
        noVerificationCallback: true,
        noRedirect: true,
      });
      expect(result.status).toBe("error");
      if (result.status !== "error") return;
      expect(result.error.code).toBe("USER_EMAIL_ALREADY_EXISTS");
      expect(result.error.status).toBe(409);
      expect(result.error.details).toMatchObject({ email });
      // The refused sign-up left the second app signed out, and the first user still signs in with its password.
      expect(await second.getUser()).toBeNull();
      const signIn = await second.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      expect(signIn.status).toBe("ok");
      expect((await second.getUser())?.id).toBe(userId);
    });

    it.each([
      ["PASSWORD_TOO_SHORT", "short"],
      ["PASSWORD_TOO_LONG", "x".repeat(300)],
    ] as const)(
      "returns %s for a password out of bounds, catchable as PASSWORD_REQUIREMENTS_NOT_MET",
      async (code, password) => {
        const target = getTarget();
        const app = clientApp(target);
        const email = uniqueEmail("bad-password");
        const result = await app.signUpWithCredential({
          email,
          password,
          noVerificationCallback: true,
          noRedirect: true,
        });
        expect(result.status).toBe("error");
        if (result.status !== "error") return;
        expect(result.error.code).toBe(code);
        expect(result.error.status).toBe(400);
        expect(result.error.isInstance("PASSWORD_REQUIREMENTS_NOT_MET")).toBe(true);
        expect(result.error.isInstance("USER_EMAIL_ALREADY_EXISTS")).toBe(false);
        // The limit is reported in the details (spec §8: "report the limit").
        const limit = code === "PASSWORD_TOO_SHORT" ? result.error.details.min_length : result.error.details.maxLength;
        expect(limit).toBeTypeOf("number");
        // Nothing was created: the email is still free.
        expect(await app.getUser()).toBeNull();
        const retry = await app.signUpWithCredential({
          email,
          password: PASSWORD,
          noVerificationCallback: true,
          noRedirect: true,
        });
        expect(retry.status).toBe("ok");
      },
    );

    it("signs in with the right password as the same user", async () => {
      const target = getTarget();
      const { email, userId } = await signedUpClient(target);
      const other = clientApp(target);
      const result = await other.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      expect(result).toEqual({ status: "ok", data: undefined });
      const user = await other.getUser({ or: "throw" });
      expect(user.id).toBe(userId);
      expect(user.primaryEmail).toBe(email);
    });

    it.each([
      ["a wrong password", "right-email"],
      ["an unknown email", "unknown-email"],
    ] as const)("answers %s with EMAIL_PASSWORD_MISMATCH (400, 'Wrong e-mail or password.')", async (_label, kind) => {
      const target = getTarget();
      const { email } = await signedUpClient(target);
      const app = clientApp(target);
      const credentials =
        kind === "right-email"
          ? { email, password: "wrong-password" }
          : { email: uniqueEmail("nobody"), password: PASSWORD };
      const result = await app.signInWithCredential({ ...credentials, noRedirect: true });
      expect(result.status).toBe("error");
      if (result.status !== "error") return;
      expect(result.error.code).toBe("EMAIL_PASSWORD_MISMATCH");
      expect(result.error.status).toBe(400);
      expect(result.error.message).toBe("Wrong e-mail or password.");
      expect(await app.getUser()).toBeNull();
      expect(await app.getRefreshToken()).toBeNull();
    });
  });
}
