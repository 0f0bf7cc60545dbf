import { describe, expect } from "vitest";
import type { AdminProjectConfigUpdateOptions } from "@authsim/sdk";
import type { Target } from "../targets.ts";
import { ownProjectNeed, projectOfItsOwn } from "./own-project.ts";
import { browserApp, landBack, strongNeeds } from "./strong-auth-support.ts";
import { adminApp, expectKnownError, itIf, PASSWORD, serverApp, uniqueEmail, uniqueTag } from "./support.ts";

/**
 * An OAuth sign-in whose email address another user already signs in with, under each of the project's
 * oauth_account_merge_strategy values (protocol.md §5 project config, §7.5 step 2; spec §3 admin project view, §8
 * "OAuth"). Each case switches the strategy, so it runs on a project of its own (own-project.ts says why).
 */

type MergeStrategy = NonNullable<AdminProjectConfigUpdateOptions["oauthAccountMergeStrategy"]>;

/** The catalogue's template for this code, filled for an email address that verifying would let through. */
const alreadyUsedMessage = (email: string) =>
  `This email "(${email})" is already used for authentication by another account but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method.`;

/** A project of the case's own with the strategy set through the admin API, and a user signing in with `email`. */
async function projectWithUser(target: Target, strategy: MergeStrategy, emailVerified: boolean) {
  const own = await projectOfItsOwn(target);
  await (await adminApp(own).getProject()).update({ config: { oauthAccountMergeStrategy: strategy } });
  const email = uniqueEmail("merge");
  const existing = await serverApp(own).createUser({
    primaryEmail: email,
    primaryEmailVerified: emailVerified,
    primaryEmailAuthEnabled: true,
    password: PASSWORD,
  });
  return { own, email, existingId: existing.id };
}

/** A GitHub sign-in whose identity provider vouches for `email` (verified), up to the app's callback or error page. */
async function oauthWithEmail(target: Target, email: string): Promise<ReturnType<typeof browserApp>> {
  const flow = browserApp(target);
  await flow.app.signInWithOAuth("github");
  await landBack(target, flow.browser, { account_id: uniqueTag("gh-merge"), email });
  return flow;
}

export function mergeStrategyCases(getTarget: () => Target): void {
  const ownProjectWithIdp = itIf(ownProjectNeed(getTarget()), strongNeeds.emulator(getTarget()));

  describe("OAuth account merge strategy", () => {
    ownProjectWithIdp(
      "link_method links the account to the user with that verified address and signs that user in",
      async () => {
        const { own, email, existingId } = await projectWithUser(getTarget(), "link_method", true);
        const { app, browser } = await oauthWithEmail(own, email);
        expect(await app.callOAuthCallback()).toBe(true);
        expect(browser.navigated.at(-1)).toBe("/signed-in");
        const user = await app.getUser({ or: "throw" });
        expect(user).toMatchObject({ id: existingId, primaryEmail: email, oauthProviders: [{ id: "github" }] });
      },
    );

    ownProjectWithIdp(
      "link_method refuses an address that is not verified: CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      async () => {
        const { own, email } = await projectWithUser(getTarget(), "link_method", false);
        const { app, browser } = await oauthWithEmail(own, email);
        // Refusals go back to the app's own callback URL when it is trusted (the SDK reads them there).
        expect(new URL(browser.page.url).pathname).toBe("/handler/oauth-callback");
        const error = await expectKnownError(
          app.callOAuthCallback(),
          "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
          409,
        );
        // Verifying the address would let link_method merge, and the details say so.
        expect(error.details).toEqual({
          type: "email",
          contact_channel_value: email,
          would_work_if_email_was_verified: true,
        });
        expect(error.message).toBe(alreadyUsedMessage(email));
        expect(await app.getUser()).toBeNull();
      },
    );

    ownProjectWithIdp(
      "raise_error refuses even a verified address: CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
      async () => {
        const { own, email } = await projectWithUser(getTarget(), "raise_error", true);
        const { app, browser } = await oauthWithEmail(own, email);
        // Refusals go back to the app's own callback URL when it is trusted (the SDK reads them there).
        expect(new URL(browser.page.url).pathname).toBe("/handler/oauth-callback");
        const error = await expectKnownError(
          app.callOAuthCallback(),
          "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
          409,
        );
        expect(error.details).toEqual({
          type: "email",
          contact_channel_value: email,
          would_work_if_email_was_verified: false,
        });
        // Verifying would not help here, so the message gives no such advice.
        expect(error.message).toBe(`This email "(${email})" is already used for authentication by another account.`);
        expect(await app.getUser()).toBeNull();
      },
    );

    ownProjectWithIdp("allow_duplicates signs a second user up whose address is not used for sign-in", async () => {
      const { own, email, existingId } = await projectWithUser(getTarget(), "allow_duplicates", true);
      const { app, browser } = await oauthWithEmail(own, email);
      expect(await app.callOAuthCallback()).toBe(true);
      expect(browser.navigated.at(-1)).toBe("/welcome");
      const user = await app.getUser({ or: "throw" });
      expect(user.id).not.toBe(existingId);
      // Two users may not both sign in with one address, so the newcomer's copy is not an auth channel.
      expect(await serverApp(own).getUser(user.id)).toMatchObject({
        primaryEmail: email,
        primaryEmailAuthEnabled: false,
      });
      expect(await serverApp(own).getUser(existingId)).toMatchObject({
        primaryEmail: email,
        primaryEmailAuthEnabled: true,
      });
    });
  });
}
