import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PUBLIC_CLIENT_SENTINEL } from "@authsim/sdk/contract";
import { buildWorld, keyHeaders, projects, type ProjectName, type Session, type World } from "../fuzz/world.ts";
import { api, clientApp, expectKnownError, expectOk, families } from "./support.ts";

/**
 * Refresh tokens are the session (protocol.md §4.3): valid until expiry, sign-out, session revoke or user deletion,
 * and only on their own project. Checked on both refresh routes (the token endpoint of §4.4 and
 * /auth/sessions/current/refresh of §4.5) and through our SDK.
 */
let world: World;

beforeAll(async () => {
  world = await buildWorld({ seed: "authsim-security-sessions" });
});
beforeEach(() => {
  world.provider.restore(world.baseline);
});

const refreshGrant = (refreshToken: string, project: ProjectName = "dev") =>
  api(
    world,
    "POST",
    "/auth/oauth/token",
    {},
    {
      form: {
        grant_type: "refresh_token",
        client_id: projects[project].id,
        client_secret: projects[project].keys.publishable_client_key,
        refresh_token: refreshToken,
      },
    },
  );

const currentRefresh = (refreshToken: string, family: "stack" | "hexclave" = "stack") =>
  api(world, "POST", "/auth/sessions/current/refresh", keyHeaders("dev", "client", { refreshToken }), { family });

/** Both refresh routes refuse the session's refresh token. */
async function expectDead(session: Session): Promise<void> {
  expectKnownError(await refreshGrant(session.refreshToken), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  for (const family of families)
    expectKnownError(await currentRefresh(session.refreshToken, family), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
}

async function expectAlive(session: Session): Promise<void> {
  expect(typeof expectOk(await refreshGrant(session.refreshToken)).access_token).toBe("string");
  expect(typeof expectOk(await currentRefresh(session.refreshToken)).access_token).toBe("string");
}

describe("refresh tokens after the session ends", () => {
  it("work while the session lives (the control case), even after their access token expired", async () => {
    await expectAlive(world.users.a);
    await expectAlive(world.stale.a);
  });

  it("die with sign-out (DELETE /auth/sessions/current), and only that session's", async () => {
    expectOk(
      await api(
        world,
        "DELETE",
        "/auth/sessions/current",
        keyHeaders("dev", "client", { accessToken: world.users.a.accessToken }),
        { body: {} },
      ),
    );
    await expectDead(world.users.a);
    await expectAlive(world.stale.a);
  });

  it("die when the user revokes that session from another one", async () => {
    const path = `/auth/sessions/${world.stale.a.sessionId}?user_id=me`;
    expectOk(await api(world, "DELETE", path, keyHeaders("dev", "client", { accessToken: world.users.a.accessToken })));
    await expectDead(world.stale.a);
    await expectAlive(world.users.a);
  });

  it("die when a server revokes the session", async () => {
    const path = `/auth/sessions/${world.users.a.sessionId}?user_id=${world.users.a.userId}`;
    expectOk(await api(world, "DELETE", path, keyHeaders("dev", "server")));
    await expectDead(world.users.a);
  });

  it("cannot revoke another user's session from a client", async () => {
    const path = `/auth/sessions/${world.users.b.sessionId}?user_id=me`;
    const answer = await api(
      world,
      "DELETE",
      path,
      keyHeaders("dev", "client", { accessToken: world.users.a.accessToken }),
    );
    expect(answer.status).toBeGreaterThanOrEqual(400);
    await expectAlive(world.users.b);
  });

  it("die with the user (server delete), every session of theirs", async () => {
    expectOk(await api(world, "DELETE", `/users/${world.users.a.userId}`, keyHeaders("dev", "server")));
    await expectDead(world.users.a);
    await expectDead(world.stale.a);
  });

  it("die with the user (client delete of itself)", async () => {
    expectOk(
      await api(world, "DELETE", "/users/me", keyHeaders("dev", "client", { accessToken: world.users.b.accessToken })),
    );
    await expectDead(world.users.b);
  });

  it("are worthless on another project, whatever client secret is sent", async () => {
    expectKnownError(await refreshGrant(world.users.a.refreshToken, "other"), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const onOther = await api(
      world,
      "POST",
      "/auth/sessions/current/refresh",
      keyHeaders("other", "client", { refreshToken: world.users.a.refreshToken }),
    );
    expectKnownError(onOther, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    const sentinel = await api(
      world,
      "POST",
      "/auth/oauth/token",
      {},
      {
        form: {
          grant_type: "refresh_token",
          client_id: projects.other.id,
          client_secret: PUBLIC_CLIENT_SENTINEL,
          refresh_token: world.users.a.refreshToken,
        },
      },
    );
    expectKnownError(sentinel, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });

  it("are refused with another project's publishable key as client secret before the token is looked at", async () => {
    const answer = await api(
      world,
      "POST",
      "/auth/oauth/token",
      {},
      {
        form: {
          grant_type: "refresh_token",
          client_id: projects.dev.id,
          client_secret: projects.other.keys.publishable_client_key,
          refresh_token: world.users.a.refreshToken,
        },
      },
    );
    expectKnownError(answer, "INVALID_OAUTH_CLIENT_ID_OR_SECRET");
  });
});

describe("refresh tokens through our SDK", () => {
  it("sign-out ends the session: the old refresh token signs nobody in afterwards", async () => {
    const tokens = { accessToken: world.users.a.accessToken, refreshToken: world.users.a.refreshToken };
    const app = clientApp(world, "dev", { ...tokens });
    expect((await app.getUser())?.id).toBe(world.users.a.userId);
    await app.signOut();
    expect(await app.getUser()).toBeNull();
    // A second app holding copies of the old tokens gets no user once the access token expires and must be refreshed.
    const copy = clientApp(world, "dev", { ...tokens });
    world.provider.clock.advance(11 * 60 * 1000);
    expect(await copy.getUser()).toBeNull();
  });

  it("a deleted user's refresh token signs nobody in", async () => {
    expectOk(await api(world, "DELETE", `/users/${world.users.b.userId}`, keyHeaders("dev", "server")));
    const app = clientApp(world, "dev", { accessToken: null, refreshToken: world.users.b.refreshToken });
    expect(await app.getUser()).toBeNull();
  });
});
