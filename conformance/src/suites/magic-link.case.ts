import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { accountNeeds, CALLBACKS, codeOfLink, nextEmail } from "./account-support.ts";
import { ownProjectNeed, projectOfItsOwn } from "./own-project.ts";
import {
  adminApp,
  clientApp,
  expectKnownError,
  itIf,
  PASSWORD,
  serverApp,
  signedUpClient,
  uniqueEmail,
} from "./support.ts";

/**
 * Magic link and one-time code sign-in through our SDK (spec §4 "After sign-in"; protocol.md §7.2), with the code
 * read from the emulator's outbox.
 */

/** An app that records where it would navigate, so the after-sign-in / after-sign-up choice can be seen. */
function navigatingApp(target: Target) {
  const navigated: string[] = [];
  const app = clientApp(target, {
    redirectMethod: { navigate: (to) => void navigated.push(to) },
    urls: { afterSignIn: "/back-again", afterSignUp: "/welcome" },
  });
  return { app, navigated };
}

/** A project of the case's own with the given flags set through the admin API (own-project.ts says why). */
async function projectWith(
  target: Target,
  config: { magicLinkEnabled?: boolean; signUpEnabled?: boolean },
): Promise<Target> {
  const own = await projectOfItsOwn(target);
  await (await adminApp(own).getProject()).update({ config });
  return own;
}

export function magicLinkCases(getTarget: () => Target): void {
  const withOutbox = itIf(accountNeeds.outbox(getTarget()));
  const ownProject = itIf(ownProjectNeed(getTarget()));

  describe("magic link sign-in", () => {
    withOutbox("signs a new address up with OTP + nonce, and goes to after-sign-up", async () => {
      const target = getTarget();
      const email = uniqueEmail("magic-new");
      const { app, navigated } = navigatingApp(target);
      const sent = await app.sendMagicLinkEmail(email, { callbackUrl: CALLBACKS.magicLink });
      if (sent.status !== "ok") throw new Error(`sendMagicLinkEmail failed: ${sent.error.code}`);
      const mail = await nextEmail(target, email, "magic_link");
      expect(mail.otp).toMatch(/^[0-9A-Z]{6}$/);
      expect(mail.text).toContain(mail.otp);
      expect(codeOfLink(mail.link)).toBe(mail.otp!.toLowerCase() + sent.data.nonce);

      expect(await app.signInWithMagicLink(mail.otp! + sent.data.nonce)).toEqual({ status: "ok", data: undefined });
      expect(navigated).toEqual(["/welcome"]);
      const user = await app.getUser({ or: "throw" });
      expect(user).toMatchObject({
        primaryEmail: email,
        primaryEmailVerified: true,
        otpAuthEnabled: true,
        hasPassword: false,
      });
    });

    withOutbox("signs an existing verified user in with the link's code, and goes to after-sign-in", async () => {
      const target = getTarget();
      const email = uniqueEmail("magic-old");
      const existing = await serverApp(target).createUser({
        primaryEmail: email,
        primaryEmailVerified: true,
        primaryEmailAuthEnabled: true,
        password: PASSWORD,
      });
      const { app, navigated } = navigatingApp(target);
      await app.sendMagicLinkEmail(email, { callbackUrl: CALLBACKS.magicLink });
      const code = codeOfLink((await nextEmail(target, email, "magic_link")).link);
      expect((await app.signInWithMagicLink(code)).status).toBe("ok");
      expect(navigated).toEqual(["/back-again"]);
      expect((await app.getUser({ or: "throw" })).id).toBe(existing.id);
      const reused = await clientApp(target).signInWithMagicLink(code, { noRedirect: true });
      expect(reused.status === "error" && reused.error.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    });

    withOutbox("upgrades the app's anonymous user instead of making a new one", async () => {
      const target = getTarget();
      const app = clientApp(target);
      const anonymous = await app.getUser({ or: "anonymous" });
      const email = uniqueEmail("magic-anon");
      const sent = await app.sendMagicLinkEmail(email, { callbackUrl: CALLBACKS.magicLink });
      const mail = await nextEmail(target, email, "magic_link");
      expect(sent.status).toBe("ok");
      expect((await app.signInWithMagicLink(mail.code!, { noRedirect: true })).status).toBe("ok");
      expect(await app.getUser({ or: "throw" })).toMatchObject({
        id: anonymous.id,
        isAnonymous: false,
        primaryEmail: email,
      });
    });

    it("reports an untrusted callback as REDIRECT_URL_NOT_WHITELISTED in the result", async () => {
      const result = await clientApp(getTarget()).sendMagicLinkEmail(uniqueEmail(), {
        callbackUrl: "https://evil.example.net/cb",
      });
      expect(result.status === "error" && result.error.code).toBe("REDIRECT_URL_NOT_WHITELISTED");
    });

    it("refuses an address used for sign-in but not verified with USER_EMAIL_ALREADY_EXISTS", async () => {
      const { email } = await signedUpClient(getTarget());
      const error = await expectKnownError(
        clientApp(getTarget()).sendMagicLinkEmail(email, { callbackUrl: CALLBACKS.magicLink }),
        "USER_EMAIL_ALREADY_EXISTS",
        409,
      );
      expect(error.details).toMatchObject({ would_work_if_email_was_verified: true });
    });

    ownProject("answers SIGN_UP_NOT_ENABLED for a new address when sign-up is closed", async () => {
      const target = await projectWith(getTarget(), { signUpEnabled: false });
      await expectKnownError(
        clientApp(target).sendMagicLinkEmail(uniqueEmail(), { callbackUrl: CALLBACKS.magicLink }),
        "SIGN_UP_NOT_ENABLED",
        400,
      );
    });

    ownProject("is refused with a plain 403 when magic links are off", async () => {
      const target = await projectWith(getTarget(), { magicLinkEnabled: false });
      await expect(
        clientApp(target).sendMagicLinkEmail(uniqueEmail(), { callbackUrl: CALLBACKS.magicLink }),
      ).rejects.toThrow(/403/);
    });
  });
}
