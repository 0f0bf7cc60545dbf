import { describe, expect, it } from "vitest";
import { NO_CONTROLS_REASON, type Controls, type Target } from "../targets.ts";
import {
  clientWithTokens,
  internalUser,
  itIf,
  needs,
  recordingFetch,
  serverApp,
  sharedClock,
  signedUpClient,
  tokenTimes,
} from "./support.ts";

/**
 * Sessions (spec §4 "Session", §9): sign-out, access-token refresh through the token endpoint, server-created sessions
 * that expire, and the literal "undefined" token. Clock moves need the emulator's controls.
 */
const TOKEN_ENDPOINT = "/api/v1/auth/oauth/token";
const ME = "/api/v1/users/me";

function controlsOf(target: Target): Controls {
  if (!target.controls) throw new Error(NO_CONTROLS_REASON);
  return target.controls;
}

export function sessionCases(getTarget: () => Target): void {
  const controls = needs.controls(getTarget());

  describe("sign-out", () => {
    it("ends the session: getUser is null and the old refresh token is refused by the token endpoint", async () => {
      const target = getTarget();
      const { app, user } = await signedUpClient(target);
      const refreshToken = await app.getRefreshToken();
      expect(refreshToken).not.toBeNull();
      await user.signOut();
      expect(await app.getUser()).toBeNull();
      expect(await app.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });

      const recorder = recordingFetch(target);
      const resumed = clientWithTokens(target, { accessToken: "", refreshToken }, { fetch: recorder.fetch });
      expect(await resumed.getUser()).toBeNull();
      expect(recorder.count(TOKEN_ENDPOINT)).toBe(1);
      // The refused refresh ended that app's session too.
      expect(await resumed.getRefreshToken()).toBeNull();
    });

    it("ends only its own session", async () => {
      const target = getTarget();
      const { app, userId } = await signedUpClient(target);
      const session = await serverApp(target).createSession({ userId });
      const other = clientWithTokens(target, await session.getTokens());
      await app.signOut();
      expect(await app.getUser()).toBeNull();
      expect((await other.getUser())?.id).toBe(userId);
    });

    it("twice in a row ends locally without throwing", async () => {
      const { app } = await signedUpClient(getTarget());
      await app.signOut();
      await expect(app.signOut()).resolves.toBeUndefined();
      expect(await app.getUser()).toBeNull();
    });

    it("with a refresh token that is already invalid ends locally without throwing", async () => {
      const target = getTarget();
      const { app } = await signedUpClient(target);
      const stale = clientWithTokens(target, { accessToken: "", refreshToken: await app.getRefreshToken() });
      await app.signOut();
      await expect(stale.signOut()).resolves.toBeUndefined();
      expect(await stale.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
    });

    it("ignores the provider's REFRESH_TOKEN_ERROR when the session is already gone server-side", async () => {
      const target = getTarget();
      const { app } = await signedUpClient(target);
      const recorder = recordingFetch(target);
      // Same tokens, still-valid access token: this app will ask the provider to end a session that no longer exists.
      const twin = clientWithTokens(target, await app.getAuthJson(), { fetch: recorder.fetch });
      await app.signOut();
      await expect(twin.signOut()).resolves.toBeUndefined();
      expect(
        recorder.seen.filter((r) => r.method === "DELETE" && r.path === "/api/v1/auth/sessions/current"),
      ).toHaveLength(1);
      expect(await twin.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
    });

    it("after the user was deleted elsewhere, ends locally without throwing", async () => {
      const target = getTarget();
      const { app, userId } = await signedUpClient(target);
      await (await serverApp(target).getUser(userId))!.delete();
      // The app still holds an access token that has not expired: the provider finds no session to end.
      expect(await app.getAccessToken()).not.toBeNull();
      await expect(app.signOut()).resolves.toBeUndefined();
      expect(await app.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
    });
  });

  describe("tokens and refresh", () => {
    itIf(controls)("refreshes after the provider's clock passes the access-token lifetime", async () => {
      const target = getTarget();
      const recorder = recordingFetch(target);
      const { app, userId } = await signedUpClient(target, { fetch: recorder.fetch });
      expect(recorder.count(TOKEN_ENDPOINT)).toBe(0);
      const before = (await app.getAccessToken())!;

      await controlsOf(target).advanceClock(tokenTimes(before).lifetimeMillis + 1_000);
      recorder.seen.length = 0;
      const user = await app.getUser({ or: "throw" });
      expect(user.id).toBe(userId);
      // The SDK's own clock did not move: the provider refused the old token, the SDK refreshed once and retried.
      expect(recorder.count(TOKEN_ENDPOINT)).toBe(1);
      expect(recorder.count(ME)).toBe(2);
      expect(await app.getAccessToken()).not.toBe(before);
    });

    itIf(needs.sharedClock(getTarget()))(
      "refreshes before a request once less than 20 s of the token are left",
      async () => {
        const target = getTarget();
        const clock = await sharedClock(target);
        const recorder = recordingFetch(target);
        const { app, userId } = await signedUpClient(target, { fetch: recorder.fetch, clock });

        await clock.advance(tokenTimes((await app.getAccessToken())!).lifetimeMillis - 30_000);
        recorder.seen.length = 0;
        expect((await app.getUser())?.id).toBe(userId);
        expect(recorder.count(TOKEN_ENDPOINT)).toBe(0);

        await clock.advance(15_000);
        expect((await app.getUser())?.id).toBe(userId);
        // 15 s left is inside the 20 s freshness window (spec §9): one refresh, and the request is never refused.
        expect(recorder.count(TOKEN_ENDPOINT)).toBe(1);
        expect(recorder.count(ME)).toBe(2);
      },
    );

    itIf(controls)("concurrent calls share one refresh", async () => {
      const target = getTarget();
      const recorder = recordingFetch(target);
      const { app, userId } = await signedUpClient(target, { fetch: recorder.fetch });
      await controlsOf(target).advanceClock(tokenTimes((await app.getAccessToken())!).lifetimeMillis + 1_000);
      const users = await Promise.all([app.getUser(), app.getUser(), app.getUser()]);
      expect(users.map((u) => u?.id)).toEqual([userId, userId, userId]);
      expect(recorder.count(TOKEN_ENDPOINT)).toBe(1);
    });

    itIf(needs.internalDevKeys(getTarget()))("counts another project's tokens as no user", async () => {
      const target = getTarget();
      const { app } = await internalUser(target);
      const tokens = await app.getAuthJson();
      // The provider refuses the token for this project (INVALID_PROJECT_FOR_ACCESS_TOKEN), then its refresh token.
      const foreign = clientWithTokens(target, tokens);
      expect(await foreign.getUser()).toBeNull();
      expect(await foreign.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
      // A server app's local verification refuses it without asking (wrong audience).
      const recorder = recordingFetch(target);
      const server = serverApp(target, { fetch: recorder.fetch, tokenStore: null });
      expect(
        await server.getUser({ tokenStore: { headers: { "x-stack-access-token": tokens.accessToken ?? "" } } }),
      ).toBeNull();
      expect(recorder.count(ME)).toBe(0);
    });

    it('treats the literal "undefined" in an explicit token store as absent', async () => {
      const target = getTarget();
      const recorder = recordingFetch(target);
      const app = clientWithTokens(
        target,
        { accessToken: "undefined", refreshToken: "undefined" },
        { fetch: recorder.fetch },
      );
      expect(await app.getUser()).toBeNull();
      expect(await app.getAuthJson()).toEqual({ accessToken: null, refreshToken: null });
      expect(recorder.seen).toEqual([]);

      // Beside a real refresh token, an "undefined" access token is simply missing: the SDK refreshes.
      const { app: signedIn, userId } = await signedUpClient(target);
      const resumed = clientWithTokens(
        target,
        { accessToken: "undefined", refreshToken: await signedIn.getRefreshToken() },
        { fetch: recorder.fetch },
      );
      expect((await resumed.getUser())?.id).toBe(userId);
      expect(recorder.count(TOKEN_ENDPOINT)).toBe(1);
    });
  });

  describe("server-created sessions", () => {
    it("give tokens that a client app uses as its token store", async () => {
      const target = getTarget();
      const { userId, email } = await signedUpClient(target);
      const session = await serverApp(target).createSession({ userId });
      const tokens = await session.getTokens();
      expect(tokens.accessToken).not.toBeNull();
      expect(tokens.refreshToken).not.toBeNull();
      const user = await clientWithTokens(target, tokens).getUser({ or: "throw" });
      expect(user.id).toBe(userId);
      expect(user.primaryEmail).toBe(email);
      // The refresh token alone is enough.
      expect(
        (await clientWithTokens(target, { accessToken: null, refreshToken: tokens.refreshToken }).getUser())?.id,
      ).toBe(userId);
    });

    itIf(controls)("with a short expiresInMillis stop working once the clock passes it", async () => {
      const target = getTarget();
      const { userId } = await signedUpClient(target);
      const server = serverApp(target);
      const short = await (await server.createSession({ userId, expiresInMillis: 60_000 })).getTokens();
      const long = await (await server.createSession({ userId })).getTokens();
      const shortApp = clientWithTokens(target, short);
      const longApp = clientWithTokens(target, long);
      expect((await shortApp.getUser())?.id).toBe(userId);

      await controlsOf(target).advanceClock(61_000);
      // Past its expiry the short session's refresh token is refused; the default (one-year) session's is not.
      expect(
        await clientWithTokens(target, { accessToken: null, refreshToken: short.refreshToken }).getUser(),
      ).toBeNull();
      expect(
        (await clientWithTokens(target, { accessToken: null, refreshToken: long.refreshToken }).getUser())?.id,
      ).toBe(userId);

      // Once the access tokens have expired too, only the long session's app still has a user.
      await controlsOf(target).advanceClock(tokenTimes(short.accessToken!).lifetimeMillis);
      expect(await shortApp.getUser()).toBeNull();
      expect(await shortApp.getRefreshToken()).toBeNull();
      expect((await longApp.getUser())?.id).toBe(userId);
    });
  });
}
