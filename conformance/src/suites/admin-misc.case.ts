import { describe, expect } from "vitest";
import type { Target } from "../targets.ts";
import { ownedProject } from "./admin-support.ts";
import { PASSWORD, adminApp, itIf, needs, uniqueEmail, uniqueTag } from "./support.ts";

/** Metrics, the webhook token, AI chat threads, feature support and health (spec §7 Admin and Other). */
export function adminMiscCases(getTarget: () => Target): void {
  const it = itIf();
  const owned = itIf(needs.internalDevKeys(getTarget()));

  describe("admin extras", () => {
    owned(
      "the onboarding preview lists the users requiring email verification would restrict, and none once it is on",
      async () => {
        const { project, admin, server } = await ownedProject(getTarget());
        const unverified = await server().createUser({
          primaryEmail: uniqueEmail("unverified"),
          primaryEmailVerified: false,
        });
        await server().createUser({ primaryEmail: uniqueEmail("verified"), primaryEmailVerified: true });
        const preview = await admin.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true });
        expect(preview).toEqual({
          affectedUsers: [
            {
              id: unverified.id,
              displayName: null,
              primaryEmail: unverified.primaryEmail,
              restrictedReason: { type: "email_not_verified" },
            },
          ],
          totalAffectedCount: 1,
        });
        // As the published kit, a limit of 0 is no limit (the service's default of 10).
        expect(
          (await admin.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true }, 0)).affectedUsers,
        ).toHaveLength(1);
        await project.updateConfig({ "onboarding.requireEmailVerification": true });
        expect(await admin.previewAffectedUsersByOnboardingChange({ requireEmailVerification: true })).toEqual({
          affectedUsers: [],
          totalAffectedCount: 0,
        });
      },
    );

    owned("metrics count the project's users from its state, anonymous ones only when asked", async () => {
      const { admin, client } = await ownedProject(getTarget());
      expect((await admin.getMetrics()).total_users).toBe(0);
      await client().signUpWithCredential({
        email: uniqueEmail("metric"),
        password: PASSWORD,
        noVerificationCallback: true,
        noRedirect: true,
      });
      await client().getUser({ or: "anonymous" });
      const metrics = await admin.getMetrics();
      expect(metrics.total_users).toBe(1);
      expect(metrics.daily_users.at(-1)!.activity).toBe(1);
      expect(metrics.login_methods).toContainEqual({ method: "password", count: 1 });
      expect((await admin.getMetrics(true)).total_users).toBe(2);
    });

    it("the svix token is a fresh string per call", async () => {
      const admin = adminApp(getTarget());
      const [a, b] = [await admin.getSvixToken(), await admin.getSvixToken()];
      expect(a.token.length).toBeGreaterThan(10);
      expect(a.token).not.toBe(b.token);
    });

    it("AI chat threads store the messages saved to them, in order", async () => {
      const admin = adminApp(getTarget());
      const thread = uniqueTag("thread");
      expect(await admin.listChatMessages(thread)).toEqual({ messages: [] });
      await admin.saveChatMessage(thread, { role: "user", content: "Make the button blue" });
      await admin.saveChatMessage(thread, { role: "assistant", content: "Done" });
      expect((await admin.listChatMessages(thread)).messages).toEqual([
        { role: "user", content: "Make the button blue" },
        { role: "assistant", content: "Done" },
      ]);
    });

    it("POST /check-feature-support answers in plain text, and /health is up", async () => {
      const target = getTarget();
      const feature = await target.fetch(`${target.baseUrl}/api/v1/check-feature-support`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ feature_name: "Quantum sign-in" }),
      });
      expect(feature.status).toBe(200);
      expect(await feature.text()).toBe(
        "Quantum sign-in is not yet supported. Please reach out to Stack support for more information.",
      );
      // `name` alone names nothing in the answer (the real handler reads `feature_name` only).
      const unnamed = await target.fetch(`${target.baseUrl}/api/v1/check-feature-support`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "rsc-handler-signIn" }),
      });
      expect(await unnamed.text()).toBe(
        "This feature is not yet supported. Please reach out to Stack support for more information.",
      );
      const health = await target.fetch(`${target.baseUrl}/health`);
      expect(await health.json()).toEqual({ status: "ok" });
    });
  });
}
