import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import {
  adminApp,
  expectKnownError,
  itIf,
  needs,
  serverApp,
  sharedClock,
  signedUpClient,
  uniqueTag,
} from "./support.ts";

/** User, team and internal API keys through our SDK (spec §3, §4 validity, §8; protocol.md §5.8). */
const HOUR = 3_600_000;

export function apiKeyCases(getTarget: () => Target): void {
  const withClock = itIf(needs.controls(getTarget()));
  const withSharedClock = itIf(needs.sharedClock(getTarget()));

  describe("user API keys", () => {
    it("show the full value once, then its last four characters; the server finds the key and its user", async () => {
      const target = getTarget();
      const { user, userId } = await signedUpClient(target);
      const created = await user.createApiKey({ description: "deploys", expiresAt: null });
      expect(created.value).toMatch(/^sk_[0-9a-z]{77}user[0-9a-z]574ck4u7h[0-9a-f]{8}$/);
      expect(created).toMatchObject({
        type: "user",
        userId,
        description: "deploys",
        manuallyRevokedAt: null,
        isPublic: false,
      });
      expect(created.isValid()).toBe(true);
      const [listed] = await user.listApiKeys();
      expect(listed).toMatchObject({ id: created.id, value: { lastFour: created.value.slice(-4) } });

      const server = serverApp(target);
      expect(await server.checkApiKey({ type: "user", apiKey: created.value })).toMatchObject({
        id: created.id,
        userId,
      });
      expect((await server.getUser({ apiKey: created.value }))?.id).toBe(userId);
    });

    it("once revoked, are invalid to the client (manually-revoked) and null to the server's check", async () => {
      const target = getTarget();
      const { user } = await signedUpClient(target);
      const created = await user.createApiKey({ description: "temp", expiresAt: null });
      await created.revoke();
      const [revoked] = await user.listApiKeys();
      expect([revoked!.isValid(), revoked!.whyInvalid(), revoked!.manuallyRevokedAt instanceof Date]).toEqual([
        false,
        "manually-revoked",
        true,
      ]);
      expect(await serverApp(target).checkApiKey({ type: "user", apiKey: created.value })).toBeNull();
      expect(await serverApp(target).getUser({ apiKey: created.value })).toBeNull();
    });

    it("refuse to revoke a public key with PUBLIC_API_KEY_CANNOT_BE_REVOKED", async () => {
      const { user } = await signedUpClient(getTarget());
      const created = await user.createApiKey({ description: "public", expiresAt: null, isPublic: true });
      expect(created.value).toMatch(/^pk_[0-9a-z]{77}user[0-9a-z]574ck4u7h[0-9a-f]{8}$/);
      await expectKnownError(created.revoke(), "PUBLIC_API_KEY_CANNOT_BE_REVOKED", 400);
    });

    it("update the description and expiry", async () => {
      const target = getTarget();
      const { user } = await signedUpClient(target);
      const created = await user.createApiKey({ description: "before", expiresAt: null });
      const expiresAt = new Date(Date.UTC(2100, 0, 1));
      await created.update({ description: "after", expiresAt });
      const [updated] = await user.listApiKeys();
      expect([updated!.description, updated!.expiresAt?.getTime()]).toEqual(["after", expiresAt.getTime()]);
    });

    it("for a team: created and listed through the team object, found by the server's team check, refused as a user key", async () => {
      const target = getTarget();
      const { user } = await signedUpClient(target);
      const team = await user.createTeam({ displayName: `keys ${uniqueTag("team")}` });
      const created = await team.createApiKey({ description: "team deploys", expiresAt: null });
      expect(created).toMatchObject({ type: "team", teamId: team.id, description: "team deploys" });
      expect((await team.listApiKeys()).map((k) => [k.id, k.value])).toEqual([
        [created.id, { lastFour: created.value.slice(-4) }],
      ]);
      const server = serverApp(target);
      expect(await server.checkApiKey({ type: "team", apiKey: created.value })).toMatchObject({
        id: created.id,
        teamId: team.id,
      });
      expect(await server.checkApiKey({ type: "user", apiKey: created.value })).toBeNull();
      const serverTeam = await server.getTeam(team.id);
      expect((await serverTeam!.listApiKeys()).map((k) => k.id)).toEqual([created.id]);
    });

    it("are null to the server's check of the other type, and of an unknown secret", async () => {
      const target = getTarget();
      const { user } = await signedUpClient(target);
      const created = await user.createApiKey({ description: "typed", expiresAt: null });
      expect(await serverApp(target).checkApiKey({ type: "team", apiKey: created.value })).toBeNull();
      expect(await serverApp(target).checkApiKey({ type: "user", apiKey: `sk_user_${uniqueTag("nope")}` })).toBeNull();
    });

    withClock("expire by the provider's clock: the server's check is then null", async () => {
      const target = getTarget();
      const { user } = await signedUpClient(target);
      const expiresAt = new Date((await user.getActiveSessions())[0]!.createdAt.getTime() + HOUR);
      const created = await user.createApiKey({ description: "hour", expiresAt });
      await target.controls!.advanceClock(HOUR + 1);
      expect(await serverApp(target).checkApiKey({ type: "user", apiKey: created.value })).toBeNull();
    });

    withSharedClock("report expired on the client once the shared clock passes the expiry", async () => {
      const target = getTarget();
      const clock = await sharedClock(target);
      const { user } = await signedUpClient(target, { clock });
      const created = await user.createApiKey({ description: "hour", expiresAt: new Date(clock.now() + HOUR) });
      await clock.advance(HOUR + 1);
      expect([created.isValid(), created.whyInvalid()]).toEqual([false, "expired"]);
    });
  });

  describe("internal API keys", () => {
    it("show full values once; the new secret key authenticates until the set is revoked", async () => {
      const target = getTarget();
      const admin = adminApp(target);
      const description = uniqueTag("ci-keys");
      const created = await admin.createInternalApiKey({
        description,
        expiresAt: new Date(Date.UTC(2100, 0, 1)),
        hasPublishableClientKey: false,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: false,
      });
      expect(created.secretServerKey).toMatch(/^ssk_/);
      expect(created.publishableClientKey).toBeUndefined();
      const listed = (await admin.listInternalApiKeys()).find((k) => k.id === created.id)!;
      expect(listed).toMatchObject({
        description,
        secretServerKey: { lastFour: created.secretServerKey!.slice(-4) },
        publishableClientKey: null,
      });
      expect(listed.isValid()).toBe(true);

      const withNewKey = serverApp(target, { secretServerKey: created.secretServerKey! });
      await expect(withNewKey.listUsers({ limit: 1 })).resolves.toBeDefined();
      await listed.revoke();
      await expectKnownError(withNewKey.listUsers({ limit: 1 }), "INVALID_SECRET_SERVER_KEY", 401);
      const revoked = (await admin.listInternalApiKeys()).find((k) => k.id === created.id)!;
      expect([revoked.isValid(), revoked.whyInvalid()]).toEqual([false, "manually-revoked"]);
    });
  });
}
