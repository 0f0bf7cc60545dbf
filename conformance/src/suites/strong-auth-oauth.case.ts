import { describe, expect, it } from "vitest";
import { KnownError } from "@authsim/sdk";
import type { Target } from "../targets.ts";
import { APP_ORIGIN, browserApp, currentTotp, landBack, strongNeeds, TOTP_SECRET } from "./strong-auth-support.ts";
import { expectKnownError, itIf, needs, PASSWORD, signedUpClient, uniqueTag } from "./support.ts";

/**
 * OAuth through our SDK and the emulator's mock identity provider (protocol.md §7.5; spec §4 "After sign-in", §5, §8
 * "OAuth"): sign-up and sign-in, returnTo, denial, the outer timeout, linking, connected accounts, and MFA after OAuth.
 */
export function oauthCases(getTarget: () => Target): void {
  const withIdp = itIf(strongNeeds.emulator(getTarget()));
  const withClock = itIf(strongNeeds.emulator(getTarget()), needs.controls(getTarget()));

  describe("OAuth sign-in", () => {
    withIdp(
      "signs a new user up (after-sign-up), strips code and state, then signs the same user in (after-sign-in)",
      async () => {
        const target = getTarget();
        const account = uniqueTag("gh");
        const first = browserApp(target);
        await first.app.signInWithOAuth("github");
        await landBack(target, first.browser, {
          account_id: account,
          email: `${account}@conformance.example.com`,
          name: "Octo",
        });
        expect(new URL(first.browser.page.url).searchParams.has("code")).toBe(true);
        expect(await first.app.callOAuthCallback()).toBe(true);
        expect(first.browser.navigated.at(-1)).toBe("/welcome");
        const user = await first.app.getUser({ or: "throw" });
        expect(user).toMatchObject({
          displayName: "Octo",
          primaryEmail: `${account}@conformance.example.com`,
          oauthProviders: [{ id: "github" }],
          hasPassword: false,
        });

        const second = browserApp(target);
        await second.app.signInWithOAuth("github");
        await landBack(target, second.browser, { account_id: account });
        await second.app.callOAuthCallback();
        expect(second.browser.page.url).toBe(`${APP_ORIGIN}/signed-in`);
        expect(second.browser.navigated.at(-1)).toBe("/signed-in");
        expect((await second.app.getUser({ or: "throw" })).id).toBe(user.id);
        // The page no longer carries code and state, so calling again is a no-op with a warning.
        second.browser.page.url = `${APP_ORIGIN}/handler/oauth-callback`;
        expect(await second.app.callOAuthCallback()).toBe(false);
        expect(second.browser.warnings.at(-1)).toMatch(/^Missing required query parameter on OAuth callback: code/);
      },
    );

    withIdp("returns to returnTo after the callback (after_callback_redirect_url)", async () => {
      const target = getTarget();
      const { app, browser } = browserApp(target);
      await app.signInWithOAuth("github", { returnTo: `${APP_ORIGIN}/dashboard?tab=2` });
      await landBack(target, browser, { account_id: uniqueTag("gh-return") });
      expect(await app.callOAuthCallback()).toBe(true);
      expect(browser.navigated.at(-1)).toBe(`${APP_ORIGIN}/dashboard?tab=2`);
    });

    withIdp("brings a denial back as OAUTH_PROVIDER_ACCESS_DENIED to the callback page", async () => {
      const target = getTarget();
      const { app, browser } = browserApp(target);
      await app.signInWithOAuth("github");
      await landBack(target, browser, { action: "deny" });
      // The service sends a refusal to the app's own (trusted) callback URL first, its error URL only failing that.
      expect(new URL(browser.page.url).pathname).toBe("/handler/oauth-callback");
      expect(new URL(browser.page.url).searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_ACCESS_DENIED");
      const error = await expectKnownError(app.callOAuthCallback(), "OAUTH_PROVIDER_ACCESS_DENIED", 400);
      expect(error.message).toBe("The OAuth provider denied access to the user.");
      expect(await app.getUser()).toBeNull();
    });

    withClock("times the flow out after 3600 s of the provider's clock: OUTER_OAUTH_TIMEOUT", async () => {
      const target = getTarget();
      const { app, browser } = browserApp(target);
      await app.signInWithOAuth("github");
      await target.controls!.advanceClock(3_600_000);
      await landBack(target, browser, { account_id: uniqueTag("gh-late") });
      await expectKnownError(app.callOAuthCallback(), "OUTER_OAUTH_TIMEOUT", 408);
    });

    it("refuses a provider the project has not enabled", async () => {
      await expectKnownError(
        browserApp(getTarget()).app.signInWithOAuth("facebook"),
        "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
        400,
      );
    });

    withIdp("refuses an untrusted callback URL when the browser comes back, on the app's error page", async () => {
      const target = getTarget();
      const evil = browserApp(target, { urls: { oauthCallback: "https://evil.example.net/handler/oauth-callback" } });
      // The flow starts (the service judges the callback URL only once the provider answered) ...
      await evil.app.signInWithOAuth("github");
      await landBack(target, evil.browser, { account_id: uniqueTag("gh-evil") });
      // ... and ends on the trusted error page, nobody signed in.
      expect(`${new URL(evil.browser.page.url).origin}${new URL(evil.browser.page.url).pathname}`).toBe(
        `${APP_ORIGIN}/handler/error`,
      );
      await expectKnownError(evil.app.callOAuthCallback(), "REDIRECT_URL_NOT_WHITELISTED", 400);
      expect(await evil.app.getUser()).toBeNull();
    });
  });

  describe("OAuth linking and connected accounts", () => {
    withIdp(
      "links a Google account with extra scopes; its tokens follow the granted scopes (missing scope gives none)",
      async () => {
        const target = getTarget();
        const { email } = await signedUpClient(target);
        const { app, browser } = browserApp(target);
        expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
        const user = await app.getUser({ or: "throw" });
        browser.page.url = `${APP_ORIGIN}/settings`;
        await user.linkConnectedAccount("google", { scopes: ["drive.readonly"] });
        const account = uniqueTag("g");
        await landBack(target, browser, { account_id: account, scopes: "openid email drive.readonly" });
        expect(await app.callOAuthCallback()).toBe(true);
        expect(browser.navigated.at(-1)).toBe(`${APP_ORIGIN}/settings`);

        const again = await app.getUser({ or: "throw" });
        const [connection] = await again.listConnectedAccounts();
        expect(connection).toMatchObject({ provider: "google", providerAccountId: account });
        const token = await connection!.getAccessToken({ scopes: ["drive.readonly"] });
        expect(token.status === "ok" && token.data.accessToken).toMatch(/^mock_google_at_/);
        const missing = await connection!.getAccessToken({ scopes: ["gmail.send"] });
        expect(missing.status === "error" && missing.error.code).toBe("OAUTH_ACCESS_TOKEN_NOT_AVAILABLE");
        expect(await again.getConnectedAccount("google", { scopes: ["gmail.send"] })).toBeNull();
        expect(await again.getConnectedAccount("github")).toBeNull();
        const deprecated = await again.getConnectedAccount("google", { scopes: ["email"] });
        expect((await deprecated!.getAccessToken()).accessToken).toMatch(/^mock_google_at_/);
        expect(await again.getConnectedAccount({ provider: "google", providerAccountId: account })).not.toBeNull();
      },
    );

    withIdp(
      "refuses a second account of a linked provider: USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
      async () => {
        const target = getTarget();
        const { app, browser } = browserApp(target);
        await app.signInWithOAuth("github");
        await landBack(target, browser, { account_id: uniqueTag("gh-first") });
        await app.callOAuthCallback();
        await (await app.getUser({ or: "throw" })).linkConnectedAccount("github");
        await landBack(target, browser, { account_id: uniqueTag("gh-second") });
        await expectKnownError(app.callOAuthCallback(), "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION", 409);
      },
    );
  });

  describe("MFA after OAuth", () => {
    withIdp("keeps the attempt code, goes to the mfa page, and signs in with the TOTP", async () => {
      const target = getTarget();
      const account = uniqueTag("gh-mfa");
      const setup = browserApp(target);
      await setup.app.signInWithOAuth("github");
      await landBack(target, setup.browser, { account_id: account });
      await setup.app.callOAuthCallback();
      const user = await setup.app.getUser({ or: "throw" });
      await user.update({ totpMultiFactorSecret: TOTP_SECRET });

      const { app, browser } = browserApp(target);
      await app.signInWithOAuth("github");
      await landBack(target, browser, { account_id: account });
      const error = await expectKnownError(app.callOAuthCallback(), "MULTI_FACTOR_AUTHENTICATION_REQUIRED", 400);
      expect(error).toBeInstanceOf(KnownError);
      expect(browser.navigated.at(-1)).toBe("/handler/mfa");
      const attempt = app.getPendingMfaAttemptCode()!;
      expect(attempt).toBe(error.details.attempt_code);
      expect(await app.signInWithMfa(await currentTotp(target, user.id), attempt)).toEqual({
        status: "ok",
        data: undefined,
      });
      expect((await app.getUser({ or: "throw" })).id).toBe(user.id);
    });
  });
}
