import { describe, expect, it } from "vitest";
import { UserNotSignedInError } from "@authsim/sdk";
import type { Target } from "../targets.ts";
import {
  clientApp,
  clientWithTokens,
  PASSWORD,
  recordingFetch,
  serverApp,
  signedUpClient,
  uniqueEmail,
  uniqueTag,
} from "./support.ts";

/**
 * getUser's `or` options when nobody is signed in, and anonymous users (spec §4 "Anonymous users", "User lookup with
 * no signed-in user"; protocol.md §7.8).
 */
export function currentUserCases(getTarget: () => Target): void {
  describe("getUser with no signed-in user", () => {
    it('gives null for or: "return-null" and by default, without asking the provider', async () => {
      const target = getTarget();
      const recorder = recordingFetch(target);
      const app = clientApp(target, { fetch: recorder.fetch });
      expect(await app.getUser({ or: "return-null" })).toBeNull();
      expect(await app.getUser()).toBeNull();
      // No token at all: there is nobody to ask about.
      expect(recorder.seen).toEqual([]);
    });

    it('throws UserNotSignedInError for or: "throw"', async () => {
      const app = clientApp(getTarget());
      await expect(app.getUser({ or: "throw" })).rejects.toBeInstanceOf(UserNotSignedInError);
    });

    it('for or: "redirect" in Node, throws a clear error naming the sign-in route instead of navigating', async () => {
      const app = clientApp(getTarget());
      await expect(app.getUser({ or: "redirect" })).rejects.toThrow(
        /Cannot redirect to \/handler\/sign-in: this app's redirectMethod is "none"/,
      );
    });

    it('for or: "redirect", hands the sign-in URL to the app\'s redirectMethod, then throws', async () => {
      const navigated: string[] = [];
      const app = clientApp(getTarget(), {
        redirectMethod: { navigate: (to) => void navigated.push(to) },
        urls: { signIn: "/custom/sign-in" },
      });
      await expect(app.getUser({ or: "redirect" })).rejects.toThrow(/redirected to \/custom\/sign-in/);
      expect(navigated).toEqual(["/custom/sign-in"]);
    });

    it("never redirects when a user is signed in", async () => {
      const target = getTarget();
      const { email, userId } = await signedUpClient(target);
      const navigated: string[] = [];
      const app = clientApp(target, { redirectMethod: { navigate: (to) => void navigated.push(to) } });
      expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
      expect((await app.getUser({ or: "redirect" })).id).toBe(userId);
      expect(navigated).toEqual([]);
    });
  });

  describe("anonymous users", () => {
    it('or: "anonymous" signs up an anonymous user, and a second call returns the same user', async () => {
      const target = getTarget();
      const recorder = recordingFetch(target);
      const app = clientApp(target, { fetch: recorder.fetch });
      const first = await app.getUser({ or: "anonymous" });
      expect(first.isAnonymous).toBe(true);
      expect(first.primaryEmail).toBeNull();
      expect(first.hasPassword).toBe(false);
      const second = await app.getUser({ or: "anonymous" });
      expect(second.id).toBe(first.id);
      expect(recorder.count("/api/v1/auth/anonymous/sign-up")).toBe(1);
    });

    it('count as not signed in for the default option and for or: "throw"', async () => {
      const app = clientApp(getTarget());
      const anonymous = await app.getUser({ or: "anonymous" });
      expect(await app.getUser()).toBeNull();
      await expect(app.getUser({ or: "throw" })).rejects.toBeInstanceOf(UserNotSignedInError);
      // The anonymous session is kept, not replaced, by those calls.
      expect((await app.getUser({ or: "anonymous" })).id).toBe(anonymous.id);
    });

    it("are excluded from the server's user list unless includeAnonymous", async () => {
      const target = getTarget();
      const app = clientApp(target);
      const anonymous = await app.getUser({ or: "anonymous" });
      const tag = uniqueTag("anon");
      await anonymous.update({ displayName: tag });
      const server = serverApp(target);
      expect((await server.listUsers({ query: tag })).map((u) => u.id)).toEqual([]);
      const withAnonymous = await server.listUsers({ query: tag, includeAnonymous: true });
      expect(withAnonymous.map((u) => u.id)).toEqual([anonymous.id]);
      expect(withAnonymous[0]?.isAnonymous).toBe(true);
    });

    it("signing up with a credential while anonymous upgrades the same user", async () => {
      const target = getTarget();
      const app = clientApp(target);
      const anonymous = await app.getUser({ or: "anonymous" });
      await anonymous.update({ clientMetadata: { cart: ["book"] } });
      const email = uniqueEmail("upgrade");
      const result = await app.signUpWithCredential({
        email,
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      expect(result.status).toBe("ok");

      const upgraded = await app.getUser({ or: "throw" });
      expect(upgraded.id).toBe(anonymous.id);
      expect(upgraded.isAnonymous).toBe(false);
      expect(upgraded.primaryEmail).toBe(email);
      expect(upgraded.hasPassword).toBe(true);
      expect(upgraded.clientMetadata).toEqual({ cart: ["book"] });
      // The upgraded user signs in with the new credential from anywhere.
      const elsewhere = clientApp(target);
      expect((await elsewhere.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
      expect((await elsewhere.getUser())?.id).toBe(anonymous.id);
    });

    it("upgrades the anonymous user even when only its refresh token is held", async () => {
      const target = getTarget();
      const first = clientApp(target);
      const anonymous = await first.getUser({ or: "anonymous" });
      // E.g. a browser whose one-day access cookie has gone while the one-year refresh cookie remains (spec §9).
      const app = clientWithTokens(target, { accessToken: null, refreshToken: await first.getRefreshToken() });
      const email = uniqueEmail("upgrade-rt");
      const result = await app.signUpWithCredential({
        email,
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      expect(result.status).toBe("ok");
      const upgraded = await app.getUser({ or: "throw" });
      expect(upgraded.id).toBe(anonymous.id);
      expect(upgraded.primaryEmail).toBe(email);
      expect((await serverApp(target).getUser(anonymous.id))?.primaryEmail).toBe(email);
    });

    it("a refused upgrade (email taken) keeps the anonymous user and its session", async () => {
      const target = getTarget();
      const { email } = await signedUpClient(target);
      const app = clientApp(target);
      const anonymous = await app.getUser({ or: "anonymous" });
      const result = await app.signUpWithCredential({
        email,
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      expect(result.status === "error" && result.error.code).toBe("USER_EMAIL_ALREADY_EXISTS");
      const still = await app.getUser({ or: "anonymous" });
      expect(still.id).toBe(anonymous.id);
      expect(still.isAnonymous).toBe(true);
    });
  });
}
