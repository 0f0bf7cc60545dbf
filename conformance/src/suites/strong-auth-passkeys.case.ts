import { describe, expect, it } from "vitest";
import { VirtualAuthenticator } from "@authsim/fake-provider";
import type { WebAuthnAdapter } from "@authsim/sdk";
import type { Target } from "../targets.ts";
import { ownProjectNeed, projectOfItsOwn } from "./own-project.ts";
import { APP_ORIGIN, browserApp } from "./strong-auth-support.ts";
import { adminApp, expectKnownError, itIf, PASSWORD, signedUpClient } from "./support.ts";

/**
 * Passkeys through our SDK with real WebAuthn verification on the provider (protocol.md §7.6; spec §5, §8 "Passkey"),
 * the browser's authenticator replaced by the software one (ES256, `none` attestation), so no browser is needed.
 */

const adapter = (authenticator: VirtualAuthenticator): WebAuthnAdapter => ({
  startRegistration: (options) => authenticator.register(options),
  startAuthentication: (options) => authenticator.authenticate(options),
});

export function passkeyCases(getTarget: () => Target): void {
  const ownProject = itIf(ownProjectNeed(getTarget()));

  describe("passkeys", () => {
    it("registers a passkey for the signed-in user and signs in with it (after-sign-in)", async () => {
      const target = getTarget();
      const authenticator = new VirtualAuthenticator({ origin: APP_ORIGIN });
      const { email } = await signedUpClient(target);
      const owner = browserApp(target, { webAuthn: adapter(authenticator) });
      await owner.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      const user = await owner.app.getUser({ or: "throw" });
      expect(await user.registerPasskey()).toEqual({ status: "ok", data: undefined });
      expect(authenticator.list()).toEqual([expect.objectContaining({ rpId: "localhost", signCount: 0 })]);
      expect((await owner.app.getUser({ or: "throw" })).passkeyAuthEnabled).toBe(true);

      const { app, browser } = browserApp(target, { webAuthn: adapter(authenticator) });
      expect(await app.signInWithPasskey()).toEqual({ status: "ok", data: undefined });
      expect(browser.navigated).toEqual(["/signed-in"]);
      expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
      expect(authenticator.list()[0]!.signCount).toBe(1);
    });

    it("answers PASSKEY_AUTHENTICATION_FAILED for a passkey the provider does not know", async () => {
      const target = getTarget();
      const stranger = new VirtualAuthenticator({ origin: APP_ORIGIN });
      await stranger.register({
        challenge: "AAAA",
        rp: { id: "localhost", name: "elsewhere" },
        user: { id: "dXNlcg", name: "u", displayName: "u" },
        pubKeyCredParams: [{ type: "public-key", alg: -7 }],
      });
      const { app } = browserApp(target, { webAuthn: adapter(stranger) });
      const result = await app.signInWithPasskey();
      expect(result.status === "error" && [result.error.code, result.error.message]).toEqual([
        "PASSKEY_AUTHENTICATION_FAILED",
        "Passkey not found",
      ]);
    });

    it("reports a browser refusal as PASSKEY_WEBAUTHN_ERROR with its failure code, and an untrusted origin as PASSKEY_REGISTRATION_FAILED", async () => {
      const target = getTarget();
      const { email } = await signedUpClient(target);
      // An authenticator on another site: the RP id the client sets (its page's hostname) does not fit the origin.
      const elsewhere = new VirtualAuthenticator({ origin: "https://other.example.net" });
      const mismatched = browserApp(target, { webAuthn: adapter(elsewhere) });
      await mismatched.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      const refused = await (await mismatched.app.getUser({ or: "throw" })).registerPasskey();
      expect(refused.status === "error" && [refused.error.code, refused.error.details.code]).toEqual([
        "PASSKEY_WEBAUTHN_ERROR",
        "ERROR_INVALID_RP_ID",
      ]);

      const evil = browserApp(target, { webAuthn: adapter(elsewhere) });
      evil.browser.page.url = "https://other.example.net/";
      await evil.app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
      const untrusted = await (await evil.app.getUser({ or: "throw" })).registerPasskey();
      expect(untrusted.status === "error" && [untrusted.error.code, untrusted.error.message]).toEqual([
        "PASSKEY_REGISTRATION_FAILED",
        "Passkey registration failed because the origin is not allowed",
      ]);
    });

    ownProject(
      "refuses passkey sign-in where the project turned passkeys off: PASSKEY_AUTHENTICATION_NOT_ENABLED",
      async () => {
        // Turning passkeys off changes the project, so the case has one of its own (own-project.ts says why).
        const target = await projectOfItsOwn(getTarget());
        await (await adminApp(target).getProject()).update({ config: { passkeyEnabled: false } });
        const authenticator = new VirtualAuthenticator({ origin: APP_ORIGIN });
        const { app, browser } = browserApp(target, { webAuthn: adapter(authenticator) });
        // Refused at the start of the ceremony: not a result of the call, since no passkey was even asked for.
        const error = await expectKnownError(app.signInWithPasskey(), "PASSKEY_AUTHENTICATION_NOT_ENABLED", 400);
        expect(error.message).toBe("Passkey authentication is not enabled for this project.");
        expect(browser.navigated).toEqual([]);
        expect(await app.getUser()).toBeNull();
      },
    );
  });
}
