import { describe, expect } from "vitest";
import type { Target } from "../targets.ts";
import { browserApp, landBack, strongNeeds } from "./strong-auth-support.ts";
import { expectKnownError, itIf, PASSWORD, signedUpClient, uniqueTag } from "./support.ts";

/**
 * The OAuth callback's refusals that reach the app (protocol.md §7.5 step 2 and 3; spec §8 "OAuth"): a wrong code at
 * either hop, and an account that already belongs to someone else. Each is what callOAuthCallback throws, with the
 * catalogue's status and fixed message, and nobody ends up signed in or linked.
 */
export function oauthErrorCases(getTarget: () => Target): void {
  const withIdp = itIf(strongNeeds.emulator(getTarget()));

  describe("OAuth callback errors", () => {
    withIdp(
      "refuses a code the identity provider did not issue: a plain 400 at the provider callback, nobody signed in",
      async () => {
        const target = getTarget();
        const { app, browser } = browserApp(target);
        await app.signInWithOAuth("github");
        // The provider's own callback gets a code its identity provider never gave out (forged, or mistyped by hand): the
        // service cannot redeem it (an invalid grant) and answers the browser there, without sending it back to the app.
        const idp = browser.navigated.at(-1)!;
        const state = new URL(idp).searchParams.get("state")!;
        const form = new URLSearchParams({ state, action: "allow", account_id: uniqueTag("gh-forged") });
        const posted = await target.fetch(idp, {
          method: "POST",
          body: form.toString(),
          headers: { "content-type": "application/x-www-form-urlencoded" },
          redirect: "manual",
        });
        const callback = new URL(posted.headers.get("location")!);
        callback.searchParams.set("code", "forged-inner-code");
        const cookie = (posted.headers.get("set-cookie") ?? "").split(";")[0]!;
        const back = await target.fetch(callback.toString(), { headers: { cookie }, redirect: "manual" });
        expect([back.status, await back.text()]).toEqual([
          400,
          "Inner OAuth callback failed due to invalid grant. Please try again.",
        ]);
        expect(await app.getUser()).toBeNull();
      },
    );

    withIdp(
      "refuses to exchange an authorization code the provider never issued: INVALID_AUTHORIZATION_CODE",
      async () => {
        const target = getTarget();
        const { app, browser } = browserApp(target);
        await app.signInWithOAuth("github");
        await landBack(target, browser, { account_id: uniqueTag("gh-wrong-code") });
        // The app's callback page is opened with the right state (so the SDK finds its verifier) but another code.
        const page = new URL(browser.page.url);
        expect(page.searchParams.has("code")).toBe(true);
        page.searchParams.set("code", "never-issued-authorization-code");
        browser.page.url = page.toString();
        const error = await expectKnownError(app.callOAuthCallback(), "INVALID_AUTHORIZATION_CODE", 400);
        expect(error.message).toBe("The given authorization code is invalid.");
        expect(await app.getUser()).toBeNull();
      },
    );

    withIdp(
      "refuses to link an account another user signs in with: OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
      async () => {
        const target = getTarget();
        const account = uniqueTag("gh-taken");
        const holder = browserApp(target);
        await holder.app.signInWithOAuth("github");
        await landBack(target, holder.browser, { account_id: account });
        expect(await holder.app.callOAuthCallback()).toBe(true);

        const { email } = await signedUpClient(target);
        const { app, browser } = browserApp(target);
        expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
        await (await app.getUser({ or: "throw" })).linkConnectedAccount("github");
        await landBack(target, browser, { account_id: account });
        const error = await expectKnownError(
          app.callOAuthCallback(),
          "OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER",
          409,
        );
        expect(error.message).toBe("The OAuth connection is already connected to another user.");
        expect((await app.getUser({ or: "throw" })).oauthProviders).toEqual([]);
      },
    );
  });
}
