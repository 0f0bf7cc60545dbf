import { describe, expect, it } from "vitest";
import type { ItemParams } from "@authsim/sdk/contract";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import { getItem, updateItemQuantity } from "./items.ts";
import { createTeam } from "../teams/teams.ts";

/** Items of the dev project's catalogue (spec §3, §4 "Item quantity", §9; protocol.md §5.13), at the ops' seam. */

const UNKNOWN_ID = "7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f";
const credits = (userId: string): ItemParams => ({ customer_type: "user", customer_id: userId, item_id: "credits" });
const quantity = async (seam: OpSeam, params: ItemParams) =>
  (await seam.ok(asServer(), (ctx) => getItem(ctx, ctx.auth, params))).quantity;

describe("getItem", () => {
  it("reads a customer's quantity: a client its own, a server anyone's", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    expect(await seam.ok(asClient(user), (ctx) => getItem(ctx, ctx.auth, credits(user.id)))).toEqual({
      id: "credits",
      displayName: "Credits",
      quantity: 0,
    });
    const team = await seam.ok(asServer(), (ctx) => createTeam(ctx, { display_name: "Seats" }));
    expect(
      await seam.ok(asServer(), (ctx) =>
        getItem(ctx, ctx.auth, { customer_type: "team", customer_id: team.id, item_id: "seats" }),
      ),
    ).toMatchObject({ quantity: 0 });
    expect(
      await seam.ok(asServer(), (ctx) =>
        getItem(ctx, ctx.auth, { customer_type: "custom", customer_id: "org-1", item_id: "api-calls" }),
      ),
    ).toMatchObject({ quantity: 0 });
  });

  it("refuses a client without a user, or acting for someone else, before looking at the item", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    await seam.refuses(asClient(), (ctx) => getItem(ctx, ctx.auth, credits(me.id)), "USER_AUTHENTICATION_REQUIRED");
    const error = await seam.refuses(
      asClient(me),
      (ctx) => getItem(ctx, ctx.auth, { ...credits(other.id), item_id: "no-such-item" }),
      403,
    );
    expect(error.message).toBe("Clients can only access their own user or team items.");
  });

  it("refuses an unknown item, an item of another customer type, then an unknown customer, in that order", async () => {
    const seam = opSeam();
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) => getItem(ctx, ctx.auth, { ...credits(UNKNOWN_ID), item_id: "no-such-item" }),
          "ITEM_NOT_FOUND",
        )
      ).details,
    ).toEqual({ item_id: "no-such-item" });
    const mismatch = await seam.refuses(
      asServer(),
      (ctx) => getItem(ctx, ctx.auth, { customer_type: "team", customer_id: UNKNOWN_ID, item_id: "credits" }),
      "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
    );
    expect(mismatch.details).toEqual({
      item_id: "credits",
      customer_id: UNKNOWN_ID,
      item_customer_type: "user",
      actual_customer_type: "team",
    });
    await seam.refuses(asServer(), (ctx) => getItem(ctx, ctx.auth, credits(UNKNOWN_ID)), "USER_NOT_FOUND");
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) => getItem(ctx, ctx.auth, { customer_type: "team", customer_id: UNKNOWN_ID, item_id: "seats" }),
          "TEAM_NOT_FOUND",
        )
      ).details,
    ).toEqual({ team_id: UNKNOWN_ID });
  });
});

describe("updateItemQuantity", () => {
  it("adds changes, each with a manual transaction; one with an expiry stops counting when the clock reaches it", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    const transactionsBefore = seam.tables.paymentTransactions.size;
    await seam.ok(asServer(), (ctx) => updateItemQuantity(ctx, ctx.auth, credits(user.id), false, { delta: 10 }));
    const expiresAt = new Date(seam.clock.now() + 60_000).toISOString();
    await seam.ok(asServer(), (ctx) =>
      updateItemQuantity(ctx, ctx.auth, credits(user.id), false, {
        delta: 5,
        expires_at: expiresAt,
        description: "trial",
      }),
    );
    expect(await quantity(seam, credits(user.id))).toBe(15);
    expect(seam.tables.paymentTransactions.size).toBe(transactionsBefore + 2);
    seam.clock.advance(59_999);
    expect(await quantity(seam, credits(user.id))).toBe(15);
    seam.clock.advance(1);
    expect(await quantity(seam, credits(user.id))).toBe(10);
  });

  it("refuses a charge below zero (ITEM_QUANTITY_INSUFFICIENT_AMOUNT, with the delta asked for) unless negative is allowed", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await seam.ok(asServer(), (ctx) => updateItemQuantity(ctx, ctx.auth, credits(user.id), false, { delta: 3 }));
    const error = await seam.refuses(
      asServer(),
      (ctx) => updateItemQuantity(ctx, ctx.auth, credits(user.id), false, { delta: -4 }),
      "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
    );
    expect(error.details).toEqual({ item_id: "credits", customer_id: user.id, quantity: -4 });
    await seam.ok(asServer(), (ctx) => updateItemQuantity(ctx, ctx.auth, credits(user.id), false, { delta: -3 }));
    await seam.ok(asServer(), (ctx) => updateItemQuantity(ctx, ctx.auth, credits(user.id), true, { delta: -4 }));
    expect(await quantity(seam, credits(user.id))).toBe(-4);
  });

  it("checks the item and customer as reading does, writing nothing", async () => {
    const seam = opSeam();
    await seam.refuses(
      asServer(),
      (ctx) =>
        updateItemQuantity(ctx, ctx.auth, { ...credits(UNKNOWN_ID), item_id: "no-such-item" }, false, { delta: 1 }),
      "ITEM_NOT_FOUND",
    );
    await seam.refuses(
      asServer(),
      (ctx) => updateItemQuantity(ctx, ctx.auth, credits(UNKNOWN_ID), false, { delta: 1 }),
      "USER_NOT_FOUND",
    );
  });
});
