import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INTERNAL_PROJECT_ID, constants } from "@authsim/sdk/contract";
import { asServer, opSeam } from "../../../test-support/op-seam.ts";
import {
  endCurrentSession,
  endSession,
  openSession,
  openSessionFor,
  refreshAccessToken,
  refreshCurrentSession,
} from "./sessions.ts";
import { deleteUser } from "../users/users.ts";

/** Sessions (refresh-token rows): opening, the refresh grant's rule and its expiry, sign-out (protocol.md §4.3–4.5). */

const DEFAULT_LIFETIME = constants.serverSessionDefaultExpiresInMillis;

async function withUser() {
  const seam = opSeam();
  const user = await seam.addUser({ primary_email: "s@example.com" });
  return { seam, user };
}

describe("openSession", () => {
  it("opens a non-impersonation session with the default lifetime, or the one asked for", async () => {
    const { seam, user } = await withUser();
    const start = seam.clock.now();
    const plain = await seam.ok((ctx) => openSession(ctx, user));
    expect(plain.session).toMatchObject({
      userId: user.id,
      projectId: user.projectId,
      isImpersonation: false,
      createdAtMillis: start,
      expiresAtMillis: start + DEFAULT_LIFETIME,
    });
    const short = await seam.ok((ctx) => openSession(ctx, user, { expiresInMillis: 3_600_000, isImpersonation: true }));
    expect(short.session).toMatchObject({ isImpersonation: true, expiresAtMillis: start + 3_600_000 });
    expect(seam.tables.sessions.get(short.session.id)).toEqual(short.session);
  });

  it("records where the end user was when the request said so", async () => {
    const { seam, user } = await withUser();
    const where = { ip: "203.0.113.7", countryCode: "NZ" };
    const out = await seam.run((ctx) => openSession(ctx, user), where);
    expect(out.ok && seam.tables.sessions.get(out.value.session.id)?.endUserIpInfo).toEqual(where);
  });
});

describe("refreshAccessToken", () => {
  it("mints a token for the same session, echoes the refresh token and marks session and user used now", async () => {
    const { seam, user } = await withUser();
    const { session } = await seam.ok((ctx) => openSession(ctx, user));
    seam.clock.advance(30_000);
    const out = await seam.ok((ctx) => refreshAccessToken(ctx, user.projectId, session.refreshToken));
    expect(out.refreshToken).toBe(session.refreshToken);
    expect(seam.tables.sessions.get(session.id)?.lastUsedAtMillis).toBe(seam.clock.now());
    expect(seam.tables.users.get(user.id)?.lastActiveAtMillis).toBe(seam.clock.now());
  });

  it("honours a session exactly until its expiry, for any lifetime", async () => {
    const { seam, user } = await withUser();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 400 * 24 * 3_600_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        async (lifetime, past) => {
          const { session } = await seam.ok((ctx) => openSession(ctx, user, { expiresInMillis: lifetime }));
          const opened = seam.clock.now();
          const refresh = (ctx: Parameters<typeof refreshAccessToken>[0]) =>
            refreshAccessToken(ctx, user.projectId, session.refreshToken);
          seam.clock.advance(lifetime - 1);
          expect((await seam.run(refresh)).ok).toBe(true);
          seam.clock.advance(1);
          await seam.refuses(refresh, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
          seam.clock.advance(past);
          await seam.refuses(refresh, "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
          expect(seam.clock.now()).toBe(opened + lifetime + past);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("refuses an unknown token, another project's, and one whose user was deleted, writing nothing", async () => {
    const { seam, user } = await withUser();
    const { session } = await seam.ok((ctx) => openSession(ctx, user));
    await seam.refuses(
      (ctx) => refreshAccessToken(ctx, user.projectId, "0".repeat(45)),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
    await seam.refuses(
      (ctx) => refreshAccessToken(ctx, INTERNAL_PROJECT_ID, session.refreshToken),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
    await seam.ok((ctx) => deleteUser(ctx, ctx.tables.users.get(user.id)!));
    await seam.refuses(
      (ctx) => refreshAccessToken(ctx, user.projectId, session.refreshToken),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
  });
});

describe("endSession (sign-out)", () => {
  it("ends only that session", async () => {
    const { seam, user } = await withUser();
    const first = await seam.ok((ctx) => openSession(ctx, user));
    const second = await seam.ok((ctx) => openSession(ctx, user));
    await seam.ok((ctx) => endSession(ctx, first.session.id));
    expect(seam.tables.sessions.has(first.session.id)).toBe(false);
    expect((await seam.run((ctx) => refreshAccessToken(ctx, user.projectId, second.session.refreshToken))).ok).toBe(
      true,
    );
  });

  it("refuses a token without a session, or a session already ended, with REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED", async () => {
    const { seam, user } = await withUser();
    const { session } = await seam.ok((ctx) => openSession(ctx, user));
    await seam.refuses((ctx) => endSession(ctx, null), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    await seam.ok((ctx) => endSession(ctx, session.id));
    await seam.refuses((ctx) => endSession(ctx, session.id), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  });
});

describe("openSessionFor (POST /auth/sessions, server)", () => {
  it("opens a session for a user of the caller's project, with the lifetime and impersonation asked for", async () => {
    const { seam, user } = await withUser();
    const out = await seam.ok(asServer(), (ctx) =>
      openSessionFor(ctx, { user_id: user.id, expires_in_millis: 60_000, is_impersonation: true }),
    );
    const session = seam.tables.sessions.lookup("refreshToken", out.refresh_token);
    expect(session).toMatchObject({
      userId: user.id,
      isImpersonation: true,
      expiresAtMillis: seam.clock.now() + 60_000,
    });
    expect((await seam.run((ctx) => refreshAccessToken(ctx, user.projectId, out.refresh_token))).ok).toBe(true);
  });

  it("refuses an unknown user, and another project's, with USER_ID_DOES_NOT_EXIST naming the id, opening nothing", async () => {
    const { seam } = await withUser();
    const stranger = await seam.addUser({ primary_email: "other@example.com" }, INTERNAL_PROJECT_ID);
    for (const userId of ["7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f", stranger.id]) {
      const error = await seam.refuses(
        asServer(),
        (ctx) => openSessionFor(ctx, { user_id: userId }),
        "USER_ID_DOES_NOT_EXIST",
      );
      expect(error.details).toEqual({ user_id: userId });
    }
  });
});

describe("refreshCurrentSession (POST /auth/sessions/current/refresh)", () => {
  it("refreshes with the token the request carried, in the caller's project", async () => {
    const { seam, user } = await withUser();
    const { refreshToken, ...caller } = await seam.signIn(user);
    const out = await seam.ok(caller, (ctx) => refreshCurrentSession(ctx, refreshToken));
    // Signed by the mount after the transaction; here, its claims are the caller's session.
    const claims = JSON.parse(atob(out.access_token.signingInput.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
    expect(claims).toMatchObject({ sub: user.id, refresh_token_id: caller.sessionId });
  });

  it("refuses a request without one as it refuses an unknown one (REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED)", async () => {
    const { seam, user } = await withUser();
    const { refreshToken: _held, ...caller } = await seam.signIn(user);
    await seam.refuses(caller, (ctx) => refreshCurrentSession(ctx, null), "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
    await seam.refuses(
      caller,
      (ctx) => refreshCurrentSession(ctx, "0".repeat(45)),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
  });
});

describe("endCurrentSession (DELETE /auth/sessions/current)", () => {
  it("ends the session the caller's access token was minted for", async () => {
    const { seam, user } = await withUser();
    const caller = await seam.signIn(user);
    await seam.ok(caller, (ctx) => endCurrentSession(ctx));
    expect(seam.tables.sessions.has(caller.sessionId!)).toBe(false);
  });

  it("refuses a caller without a session (ACCESS_TOKEN_EXPIRED, as the real handler) before looking for one", async () => {
    const { seam } = await withUser();
    const refused = await seam.refuses({ type: "client" }, (ctx) => endCurrentSession(ctx), "ACCESS_TOKEN_EXPIRED");
    expect(refused.details).toMatchObject({ expired_at_millis: expect.any(Number) });
  });

  it("refuses a session already ended, even after its user was deleted (REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED)", async () => {
    const { seam, user } = await withUser();
    const caller = await seam.signIn(user);
    await seam.ok((ctx) => deleteUser(ctx, ctx.tables.users.get(user.id)!));
    await seam.refuses(
      { ...caller, user: null },
      (ctx) => endCurrentSession(ctx),
      "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
    );
  });
});
