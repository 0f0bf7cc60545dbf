import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { accountNeeds, CALLBACKS, codeOfLink, lastSeq, nextEmail } from "./account-support.ts";
import { clientApp, expectKnownError, itIf, PASSWORD, serverApp, signedUpClient, uniqueEmail } from "./support.ts";

/**
 * Contact channels and email verification through our SDK (spec §3, §4 "Email verification", §5; protocol.md §5.6,
 * §7.3). Codes are read from the emulator's outbox.
 */
export function contactChannelCases(getTarget: () => Target): void {
  const withOutbox = itIf(accountNeeds.outbox(getTarget()));

  describe("contact channels", () => {
    it("list the primary email as a primary channel used for sign-in", async () => {
      const { user, email } = await signedUpClient(getTarget());
      const channels = await user.listContactChannels();
      expect(
        channels.map((c) => ({
          value: c.value,
          type: c.type,
          isPrimary: c.isPrimary,
          usedForAuth: c.usedForAuth,
          isVerified: c.isVerified,
        })),
      ).toEqual([{ value: email, type: "email", isPrimary: true, usedForAuth: true, isVerified: false }]);
    });

    it("are created, updated and deleted by the signed-in user", async () => {
      const { user } = await signedUpClient(getTarget());
      const value = uniqueEmail("second");
      const created = await user.createContactChannel({ value, type: "email", usedForAuth: false });
      expect(created).toMatchObject({ value, isPrimary: false, usedForAuth: false, isVerified: false });
      await created.update({ usedForAuth: true });
      expect((await user.listContactChannels()).find((c) => c.id === created.id)?.usedForAuth).toBe(true);
      await created.delete();
      expect((await user.listContactChannels()).map((c) => c.id)).not.toContain(created.id);
    });

    it("make the user's primary email follow a channel made primary, and clear it when that channel goes", async () => {
      const { app, user } = await signedUpClient(getTarget());
      const value = uniqueEmail("new-primary");
      const channel = await user.createContactChannel({ value, type: "email", usedForAuth: true, isPrimary: true });
      expect((await app.getUser({ or: "throw" })).primaryEmail).toBe(value);
      expect((await user.listContactChannels()).filter((c) => c.isPrimary).map((c) => c.value)).toEqual([value]);
      await channel.delete();
      expect((await app.getUser({ or: "throw" })).primaryEmail).toBeNull();
    });

    it("refuse an address another user signs in with: CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE", async () => {
      const target = getTarget();
      const first = await signedUpClient(target);
      const second = await signedUpClient(target);
      const error = await expectKnownError(
        second.user.createContactChannel({ value: first.email, type: "email", usedForAuth: true }),
        "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
        409,
      );
      expect(error.details).toMatchObject({ type: "email", contact_channel_value: first.email });
      // Not for sign-in, the same address is fine.
      await expect(
        second.user.createContactChannel({ value: first.email, type: "email", usedForAuth: false }),
      ).resolves.toMatchObject({ usedForAuth: false });
    });

    it("are managed by the server for any user, verified ones included", async () => {
      const target = getTarget();
      const { userId } = await signedUpClient(target);
      const serverUser = (await serverApp(target).getUser(userId))!;
      const value = uniqueEmail("server-made");
      const channel = await serverUser.createContactChannel({
        value,
        type: "email",
        usedForAuth: false,
        isVerified: true,
      });
      expect(channel.isVerified).toBe(true);
      await channel.update({ isVerified: false });
      expect((await serverUser.listContactChannels()).find((c) => c.id === channel.id)?.isVerified).toBe(false);
    });

    it("refuse to email a verified address with EMAIL_ALREADY_VERIFIED", async () => {
      const target = getTarget();
      const { user, userId } = await signedUpClient(target);
      const value = uniqueEmail("verified");
      await (await serverApp(target).getUser(userId))!.createContactChannel({
        value,
        type: "email",
        usedForAuth: false,
        isVerified: true,
      });
      const channel = (await user.listContactChannels()).find((c) => c.value === value)!;
      await expectKnownError(
        channel.sendVerificationEmail({ callbackUrl: CALLBACKS.emailVerification }),
        "EMAIL_ALREADY_VERIFIED",
        409,
      );
    });
  });

  describe("email verification", () => {
    withOutbox("verifies a channel with the emailed code, once", async () => {
      const target = getTarget();
      const { app, user } = await signedUpClient(target);
      const value = uniqueEmail("to-verify");
      const channel = await user.createContactChannel({ value, type: "email", usedForAuth: false });
      await channel.sendVerificationEmail({ callbackUrl: CALLBACKS.emailVerification });
      const email = await nextEmail(target, value, "email_verification");
      expect(email.link?.startsWith(`${CALLBACKS.emailVerification}?code=`)).toBe(true);
      expect(await app.verifyEmail(codeOfLink(email.link))).toEqual({ status: "ok", data: undefined });
      expect((await user.listContactChannels()).find((c) => c.id === channel.id)?.isVerified).toBe(true);
      const again = await app.verifyEmail(codeOfLink(email.link));
      expect(again.status === "error" && again.error.code).toBe("VERIFICATION_CODE_ALREADY_USED");
    });

    withOutbox(
      "user.sendVerificationEmail verifies the primary email; a second one returns EMAIL_ALREADY_VERIFIED",
      async () => {
        const target = getTarget();
        const { app, user, email } = await signedUpClient(target);
        expect(await user.sendVerificationEmail({ callbackUrl: CALLBACKS.emailVerification })).toBeUndefined();
        const sent = await nextEmail(target, email, "email_verification");
        expect((await app.verifyEmail(sent.code!)).status).toBe("ok");
        const verified = await app.getUser({ or: "throw" });
        expect(verified.primaryEmailVerified).toBe(true);
        expect((await verified.sendVerificationEmail({ callbackUrl: CALLBACKS.emailVerification }))?.code).toBe(
          "EMAIL_ALREADY_VERIFIED",
        );
      },
    );

    withOutbox("is emailed on sign-up with a verificationCallbackUrl", async () => {
      const target = getTarget();
      const email = uniqueEmail("sign-up-verify");
      const app = clientApp(target);
      const before = await lastSeq(target, email);
      expect(
        (
          await app.signUpWithCredential({
            email,
            password: PASSWORD,
            verificationCallbackUrl: CALLBACKS.emailVerification,
            noRedirect: true,
          })
        ).status,
      ).toBe("ok");
      const sent = await nextEmail(target, email, "email_verification", before);
      expect((await app.verifyEmail(codeOfLink(sent.link))).status).toBe("ok");
      expect((await app.getUser({ or: "throw" })).primaryEmailVerified).toBe(true);
    });

    it("answers an unknown code with VERIFICATION_CODE_NOT_FOUND as an error result", async () => {
      const result = await clientApp(getTarget()).verifyEmail("0".repeat(45));
      expect(result.status === "error" && result.error.code).toBe("VERIFICATION_CODE_NOT_FOUND");
    });

    it("sends a malformed code as given: the service's SCHEMA_ERROR is thrown, as from the published kit", async () => {
      await expectKnownError(clientApp(getTarget()).verifyEmail("x".repeat(257)), "SCHEMA_ERROR", 400);
      await expectKnownError(clientApp(getTarget()).verifyEmail(""), "SCHEMA_ERROR", 400);
    });

    it("needs a primary email before any request (spec §5)", async () => {
      const { app, user } = await signedUpClient(getTarget());
      await (await user.listContactChannels())[0]!.delete();
      const withoutEmail = await app.getUser({ or: "throw" });
      await expect(withoutEmail.sendVerificationEmail({ callbackUrl: CALLBACKS.emailVerification })).rejects.toThrow(
        /primary email/,
      );
    });
  });
}
