import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import {
  adminApp,
  clientApp,
  clientWithTokens,
  expectKnownError,
  PASSWORD,
  serverApp,
  signedUpClient,
} from "./support.ts";

/**
 * Sessions and notification categories through our SDK (spec §3 "Session", "Notification category"; protocol.md
 * §5.7, §5.11). The account suites' runner is account.test.ts.
 */

/** What a proxy in front of the provider reports about the end user (protocol.md §2.1). */
const GEO_HEADERS = {
  "x-forwarded-for": "198.51.100.23",
  "x-vercel-ip-country": "NZ",
  "x-vercel-ip-city": "Wellington",
  "x-vercel-ip-timezone": "Pacific/Auckland",
};

export function accountCases(getTarget: () => Target): void {
  describe("active sessions", () => {
    it("list the user's sessions, marking the current one, and revoke another", async () => {
      const target = getTarget();
      const { app, user, email } = await signedUpClient(target);
      const other = clientApp(target);
      expect((await other.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
      const sessions = await user.getActiveSessions();
      expect(sessions).toHaveLength(2);
      expect(sessions.filter((s) => s.isCurrentSession)).toHaveLength(1);
      expect(sessions.every((s) => s.userId === user.id && !s.isImpersonation && s.createdAt instanceof Date)).toBe(
        true,
      );

      const otherSession = sessions.find((s) => !s.isCurrentSession)!;
      await user.revokeSession(otherSession.id);
      expect((await user.getActiveSessions()).map((s) => s.id)).not.toContain(otherSession.id);
      // Its refresh token is gone; the app's own session goes on.
      expect(
        await clientWithTokens(target, { accessToken: null, refreshToken: await other.getRefreshToken() }).getUser(),
      ).toBeNull();
      expect((await app.getUser())?.id).toBe(user.id);
    });

    it("refuse to revoke the current session with CANNOT_DELETE_CURRENT_SESSION", async () => {
      const { user } = await signedUpClient(getTarget());
      const current = (await user.getActiveSessions()).find((s) => s.isCurrentSession)!;
      await expectKnownError(user.revokeSession(current.id), "CANNOT_DELETE_CURRENT_SESSION", 400);
    });

    it("report where a session was opened from the forwarding headers", async () => {
      const target = getTarget();
      const { email } = await signedUpClient(target);
      const located = clientApp(target, { extraRequestHeaders: GEO_HEADERS });
      expect((await located.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
      const current = (await (await located.getUser({ or: "throw" })).getActiveSessions()).find(
        (s) => s.isCurrentSession,
      )!;
      expect(current.geoInfo).toMatchObject({
        ip: "198.51.100.23",
        countryCode: "NZ",
        cityName: "Wellington",
        tzIdentifier: "Pacific/Auckland",
      });
    });

    it("show impersonation sessions to admins only", async () => {
      const target = getTarget();
      const { userId } = await signedUpClient(target);
      await serverApp(target).createSession({ userId, isImpersonation: true });
      const asServer = await (await serverApp(target).getUser(userId))!.getActiveSessions();
      expect(asServer.map((s) => s.isImpersonation)).toEqual([false]);
      const asAdmin = await (await adminApp(target).getUser(userId))!.getActiveSessions();
      expect(asAdmin.map((s) => s.isImpersonation).sort()).toEqual([false, true]);
      // The server ends any of them.
      const impersonation = asAdmin.find((s) => s.isImpersonation)!;
      await (await serverApp(target).getUser(userId))!.revokeSession(impersonation.id);
      expect(
        (await (await adminApp(target).getUser(userId))!.getActiveSessions()).map((s) => s.isImpersonation),
      ).toEqual([false]);
    });
  });

  describe("notification categories", () => {
    it("list Transactional (cannot be disabled) and Marketing, both enabled by default", async () => {
      const { user } = await signedUpClient(getTarget());
      const categories = await user.listNotificationCategories();
      expect(categories.map((c) => ({ name: c.name, enabled: c.enabled, canDisable: c.canDisable }))).toEqual([
        { name: "Transactional", enabled: true, canDisable: false },
        { name: "Marketing", enabled: true, canDisable: true },
      ]);
    });

    it("turn a category off and on again, as the server sees it too", async () => {
      const target = getTarget();
      const { user, userId } = await signedUpClient(target);
      const marketing = (await user.listNotificationCategories()).find((c) => c.name === "Marketing")!;
      await marketing.setEnabled(false);
      expect((await user.listNotificationCategories()).find((c) => c.name === "Marketing")?.enabled).toBe(false);
      const serverView = await (await serverApp(target).getUser(userId))!.listNotificationCategories();
      expect(serverView.find((c) => c.id === marketing.id)?.enabled).toBe(false);
      await serverView.find((c) => c.id === marketing.id)!.setEnabled(true);
      expect((await user.listNotificationCategories()).find((c) => c.name === "Marketing")?.enabled).toBe(true);
    });

    it("refuse to disable a category whose canDisable is false, with a SCHEMA_ERROR naming it", async () => {
      const { user } = await signedUpClient(getTarget());
      const transactional = (await user.listNotificationCategories()).find((c) => !c.canDisable)!;
      const error = await expectKnownError(transactional.setEnabled(false), "SCHEMA_ERROR", 400);
      expect(error.message).toContain("Transactional");
    });
  });
}
