import { describe, expect, it } from "vitest";
import { asClient, asServer, opSeam } from "../../../test-support/op-seam.ts";
import { linkOwner, listingOwner } from "./oauth-account-owners.ts";

/** Whose OAuth provider links a request may see or change (protocol.md §5.10), at the ops' seam. */

describe("linkOwner", () => {
  it("is the caller for a client naming itself, anyone of the project for a server", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect((await seam.ok(asClient(me), (ctx) => linkOwner(ctx.auth, ctx, "me", "read"))).id).toBe(me.id);
    expect((await seam.ok(asServer(), (ctx) => linkOwner(ctx.auth, ctx, other.id, "delete"))).id).toBe(other.id);
  });

  it("refuses a client naming another user with the verb's own plain 403, and `me` without a user", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    for (const verb of ["read", "update", "delete"] as const) {
      expect((await seam.refuses(asClient(me), (ctx) => linkOwner(ctx.auth, ctx, other.id, verb), 403)).message).toBe(
        `Client can only ${verb} OAuth providers for their own user.`,
      );
    }
    await seam.refuses(asClient(), (ctx) => linkOwner(ctx.auth, ctx, "me", "read"), "CANNOT_GET_OWN_USER_WITHOUT_USER");
  });
});

describe("listingOwner", () => {
  it("a client lists its own links (`me` or its id); a server anyone's, or every link when it names no one", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect(await seam.ok(asClient(me), (ctx) => listingOwner(ctx.auth, "me"))).toBe(me.id);
    expect(await seam.ok(asClient(me), (ctx) => listingOwner(ctx.auth, me.id))).toBe(me.id);
    expect(await seam.ok(asServer(), (ctx) => listingOwner(ctx.auth, other.id))).toBe(other.id);
    expect(await seam.ok(asServer(), (ctx) => listingOwner(ctx.auth, undefined))).toBeUndefined();
    expect(await seam.ok(asServer(me), (ctx) => listingOwner(ctx.auth, "me"))).toBe(me.id);
  });

  it("refuses a client without a user, and one naming another user or no one", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    await seam.refuses(asClient(), (ctx) => listingOwner(ctx.auth, "me"), "CANNOT_GET_OWN_USER_WITHOUT_USER");
    expect((await seam.refuses(asClient(me), (ctx) => listingOwner(ctx.auth, other.id), 403)).message).toBe(
      "Client can only list OAuth providers for their own user.",
    );
    await seam.refuses(asClient(me), (ctx) => listingOwner(ctx.auth, undefined), 403);
  });
});
