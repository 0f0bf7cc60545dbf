import { describe, expect, it } from "vitest";
import { INTERNAL_PROJECT_ID } from "@authsim/sdk/contract";
import { asAdmin, asClient, asServer, opSeam } from "../../test-support/op-seam.ts";
import { targetUser } from "./access.ts";
import { refusal } from "../errors/refusals.ts";

/** Whose "user's X" a request may name (protocol.md §2.4): a client only itself, a server or admin anyone of the project. */

describe("targetUser", () => {
  it("resolves `me` to the caller and an id to the project's user", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect((await seam.ok(asClient(me), (ctx) => targetUser(ctx.auth, ctx, "me", "things"))).id).toBe(me.id);
    expect((await seam.ok(asClient(me), (ctx) => targetUser(ctx.auth, ctx, me.id, "things"))).id).toBe(me.id);
    expect((await seam.ok(asServer(), (ctx) => targetUser(ctx.auth, ctx, other.id, "things"))).id).toBe(other.id);
    expect((await seam.ok(asAdmin(), (ctx) => targetUser(ctx.auth, ctx, other.id, "things"))).id).toBe(other.id);
  });

  it("refuses `me`, or a client, without a user (CANNOT_GET_OWN_USER_WITHOUT_USER)", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await seam.refuses(
      asServer(),
      (ctx) => targetUser(ctx.auth, ctx, "me", "things"),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
    await seam.refuses(
      asClient(),
      (ctx) => targetUser(ctx.auth, ctx, user.id, "things"),
      "CANNOT_GET_OWN_USER_WITHOUT_USER",
    );
  });

  it("refuses a client naming another user with upstream's plain 403, in the operation's wording when it has one", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect(
      (await seam.refuses(asClient(me), (ctx) => targetUser(ctx.auth, ctx, other.id, "things"), 403)).message,
    ).toBe("Client can only manage things of their own user.");
    expect(
      (
        await seam.refuses(
          asClient(me),
          (ctx) => targetUser(ctx.auth, ctx, other.id, "sessions", () => refusal("clientOwnSessionsOnly")),
          403,
        )
      ).message,
    ).toBe("Client can only list sessions for their own user.");
  });

  it("refuses a server naming an unknown user, or another project's, with USER_NOT_FOUND", async () => {
    const seam = opSeam();
    const stranger = await seam.addUser({}, INTERNAL_PROJECT_ID);
    await seam.refuses(
      asServer(),
      (ctx) => targetUser(ctx.auth, ctx, "7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f", "things"),
      "USER_NOT_FOUND",
    );
    await seam.refuses(asServer(), (ctx) => targetUser(ctx.auth, ctx, stranger.id, "things"), "USER_NOT_FOUND");
  });
});
