import { describe, expect, it } from "vitest";
import { asClient, asServer, opSeam } from "../../../test-support/op-seam.ts";
import { deleteSessionById, liveSessionsOf } from "./session-list.ts";
import { openSession } from "./sessions.ts";

/** A user's live sessions and ending one by id (protocol.md §5.7), at the op's seam. */

describe("liveSessionsOf", () => {
  it("lists the live sessions newest first, impersonation ones only when asked, and drops each at its expiry", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const long = await seam.ok((ctx) => openSession(ctx, user));
    seam.clock.advance(1_000);
    const short = await seam.ok((ctx) => openSession(ctx, user, { expiresInMillis: 60_000 }));
    seam.clock.advance(1_000);
    const impersonation = await seam.ok((ctx) => openSession(ctx, user, { isImpersonation: true }));
    const ids = (includeImpersonation: boolean) =>
      seam.ok((ctx) => liveSessionsOf(ctx, user.projectId, user.id, { includeImpersonation }).map((s) => s.id));
    expect(await ids(true)).toEqual([impersonation.session.id, short.session.id, long.session.id]);
    expect(await ids(false)).toEqual([short.session.id, long.session.id]);
    seam.clock.advance(58_999);
    expect(await ids(false)).toEqual([short.session.id, long.session.id]);
    seam.clock.advance(1);
    expect(await ids(false)).toEqual([long.session.id]);
  });
});

describe("deleteSessionById", () => {
  it("ends another session of the caller's user", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const caller = await seam.signIn(user);
    const other = await seam.ok((ctx) => openSession(ctx, user));
    await seam.ok(caller, (ctx) => deleteSessionById(ctx, other.session.id));
    expect(seam.tables.sessions.has(other.session.id)).toBe(false);
    expect(seam.tables.sessions.has(caller.sessionId!)).toBe(true);
  });

  it("refuses the caller's own session with CANNOT_DELETE_CURRENT_SESSION", async () => {
    const seam = opSeam();
    const caller = await seam.signIn(await seam.addUser());
    await seam.refuses(caller, (ctx) => deleteSessionById(ctx, caller.sessionId!), "CANNOT_DELETE_CURRENT_SESSION");
  });

  it("hides another user's session from a client (404) but lets a server end it; an unknown id is 404", async () => {
    const seam = opSeam();
    const caller = await seam.signIn(await seam.addUser());
    const theirs = await seam.ok((ctx) => openSession(ctx, ctx.tables.users.get(caller.user!.id)!));
    const stranger = await seam.addUser();
    const strangers = await seam.ok((ctx) => openSession(ctx, stranger));
    expect(
      (await seam.refuses(asClient(stranger), (ctx) => deleteSessionById(ctx, theirs.session.id), 404)).message,
    ).toBe("Session not found.");
    await seam.refuses(caller, (ctx) => deleteSessionById(ctx, "0b7c1d2e-3f40-4a5b-8c6d-7e8f90a1b2c3"), 404);
    await seam.ok(asServer(), (ctx) => deleteSessionById(ctx, strangers.session.id));
    expect(seam.tables.sessions.has(strangers.session.id)).toBe(false);
  });
});
