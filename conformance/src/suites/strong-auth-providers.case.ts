import { describe, expect, it } from "vitest";
import type { Target } from "../targets.ts";
import { serverApp, signedUpClient, uniqueTag } from "./support.ts";

/**
 * OAuth provider links through our SDK (sdk-surface.md §7, §11; protocol.md §5.10): server create (a taken sign-in
 * account id is an error result), the client's and the server's views, update and delete.
 */
export function oauthProviderCases(getTarget: () => Target): void {
  describe("OAuth provider links", () => {
    it("server creates a link; a second sign-in link of the account id is OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN", async () => {
      const target = getTarget();
      const server = serverApp(target);
      const a = await signedUpClient(target);
      const b = await signedUpClient(target);
      const accountId = uniqueTag("g-acct");
      const options = {
        providerConfigId: "google",
        accountId,
        email: "linked@conformance.example.com",
        allowSignIn: true,
        allowConnectedAccounts: true,
      };
      const created = await server.createOAuthProvider({ ...options, userId: a.userId });
      if (created.status !== "ok") throw created.error;
      expect(created.data).toMatchObject({ type: "google", userId: a.userId, accountId, allowSignIn: true });
      const taken = await server.createOAuthProvider({ ...options, userId: b.userId });
      expect(taken.status === "error" && [taken.error.code, taken.error.status]).toEqual([
        "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
        400,
      ]);
      const connectedOnly = await server.createOAuthProvider({ ...options, userId: b.userId, allowSignIn: false });
      if (connectedOnly.status !== "ok") throw connectedOnly.error;
      const update = await connectedOnly.data.update({ allowSignIn: true });
      expect(update.status === "error" && update.error.code).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN");
    });

    it("lists the user's links (client and server views), updates the flags and deletes a link", async () => {
      const target = getTarget();
      const { app, userId } = await signedUpClient(target);
      const server = serverApp(target);
      const accountId = uniqueTag("gh-acct");
      const created = await server.createOAuthProvider({
        userId,
        providerConfigId: "github",
        accountId,
        email: null,
        allowSignIn: true,
        allowConnectedAccounts: false,
      });
      if (created.status !== "ok") throw created.error;

      const me = await app.getUser({ or: "throw" });
      expect(me.oauthProviders).toEqual([{ id: "github" }]);
      const [link] = await me.listOAuthProviders();
      expect(link).toMatchObject({
        id: created.data.id,
        type: "github",
        userId,
        allowSignIn: true,
        allowConnectedAccounts: false,
      });
      expect(link!.accountId).toBeUndefined();
      expect(await me.listConnectedAccounts()).toEqual([]);
      expect(await link!.update({ allowConnectedAccounts: true })).toEqual({ status: "ok", data: undefined });
      expect((await me.getOAuthProvider(created.data.id))?.allowConnectedAccounts).toBe(true);
      expect((await me.listConnectedAccounts()).map((c) => c.providerAccountId)).toEqual([accountId]);

      const serverUser = await server.getUser(userId);
      expect((await serverUser!.listOAuthProviders())[0]).toMatchObject({ accountId, type: "github" });
      await link!.delete();
      expect(await me.listOAuthProviders()).toEqual([]);
      expect(await me.getOAuthProvider(created.data.id)).toBeNull();
    });
  });
}
