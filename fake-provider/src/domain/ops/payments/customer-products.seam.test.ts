import { describe, expect, it } from "vitest";
import type { CustomerParams } from "@authsim/sdk/contract";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import type { AuthedContext } from "../context.ts";
import { cancelProduct, grantProduct, listCustomerProducts } from "./customer-products.ts";
import { getItem } from "./items.ts";
import { createTeam } from "../teams/teams.ts";

/** What a customer holds and the server's direct grant (upstream's /payments/products and /payments/billing), at the ops' seam. */

const UNKNOWN_ID = "7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f";
const userCustomer = (id: string) => ({ customer_type: "user", customer_id: id }) satisfies CustomerParams;
const held = async (seam: OpSeam, customer: CustomerParams) =>
  (await seam.ok(asServer(), (ctx) => listCustomerProducts(ctx, ctx.auth, customer, {}))).items.map((p) => [
    p.id,
    p.quantity,
    p.type,
  ]);
const credits = async (seam: OpSeam, userId: string) =>
  (await seam.ok(asServer(), (ctx) => getItem(ctx, ctx.auth, { ...userCustomer(userId), item_id: "credits" })))
    .quantity;

async function teamWithPlan(seam: OpSeam) {
  const team = await seam.ok(asServer(), (ctx) => createTeam(ctx, { display_name: "Plan" }));
  const customer: CustomerParams = { customer_type: "team", customer_id: team.id };
  const { subscriptionId } = await seam.ok(asServer(), (ctx) =>
    grantProduct(ctx, ctx.auth, customer, { product_id: "team-plan", quantity: 1 }),
  );
  return { customer, subscriptionId };
}

describe("grantProduct", () => {
  it("grants a one-time product's items times the quantity, and a recurring one as a subscription", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    expect(
      await seam.ok(asServer(), (ctx) =>
        grantProduct(ctx, ctx.auth, userCustomer(user.id), { product_id: "credit-pack", quantity: 2 }),
      ),
    ).toEqual({ subscriptionId: null });
    expect(await credits(seam, user.id)).toBe(200);
    expect(await held(seam, userCustomer(user.id))).toEqual([["credit-pack", 2, "one_time"]]);
    const { customer, subscriptionId } = await teamWithPlan(seam);
    expect(subscriptionId).toEqual(expect.any(String));
    expect(
      (await seam.ok(asServer(), (ctx) => listCustomerProducts(ctx, ctx.auth, customer, {}))).items[0],
    ).toMatchObject({ id: "team-plan", type: "subscription", subscription: { subscription_id: subscriptionId } });
  });

  it("refuses an unknown customer, an unknown product, a product of another customer type, writing nothing", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    await seam.refuses(
      asServer(),
      (ctx) => grantProduct(ctx, ctx.auth, userCustomer(UNKNOWN_ID), { product_id: "credit-pack", quantity: 1 }),
      "USER_NOT_FOUND",
    );
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) => grantProduct(ctx, ctx.auth, userCustomer(user.id), { product_id: "no-such-product", quantity: 1 }),
          "PRODUCT_DOES_NOT_EXIST",
        )
      ).details,
    ).toEqual({ product_id: "no-such-product", context: null });
    const mismatch = await seam.refuses(
      asServer(),
      (ctx) => grantProduct(ctx, ctx.auth, userCustomer(user.id), { product_id: "team-plan", quantity: 1 }),
      "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
    );
    expect(mismatch.details).toEqual({
      product_id: "team-plan",
      customer_id: user.id,
      product_customer_type: "team",
      actual_customer_type: "user",
    });
  });

  it("refuses a second grant of a product held once (PRODUCT_ALREADY_GRANTED), and more than one of it", async () => {
    const seam = opSeam();
    const { customer } = await teamWithPlan(seam);
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) => grantProduct(ctx, ctx.auth, customer, { product_id: "team-plan", quantity: 1 }),
          "PRODUCT_ALREADY_GRANTED",
        )
      ).details,
    ).toEqual({ product_id: "team-plan", customer_id: customer.customer_id });
    const fresh = await seam.ok(asServer(), (ctx) => createTeam(ctx, { display_name: "Fresh" }));
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) =>
            grantProduct(
              ctx,
              ctx.auth,
              { customer_type: "team", customer_id: fresh.id },
              { product_id: "team-plan", quantity: 2 },
            ),
          400,
        )
      ).message,
    ).toBe("This product is not stackable; quantity must be 1");
  });
});

describe("listCustomerProducts", () => {
  it("hides server-only products from a client, and pages by product id", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    for (const product_id of ["credit-pack", "enterprise-grant"])
      await seam.ok(asServer(), (ctx) =>
        grantProduct(ctx, ctx.auth, userCustomer(user.id), { product_id, quantity: 1 }),
      );
    expect(
      (
        await seam.ok(asClient(user), (ctx) => listCustomerProducts(ctx, ctx.auth, userCustomer(user.id), {}))
      ).items.map((p) => p.id),
    ).toEqual(["credit-pack"]);
    const first = await seam.ok(asServer(), (ctx) =>
      listCustomerProducts(ctx, ctx.auth, userCustomer(user.id), { limit: 1 }),
    );
    expect([first.items.map((p) => p.id), first.nextCursor]).toEqual([["credit-pack"], "enterprise-grant"]);
    const second = await seam.ok(asServer(), (ctx) =>
      listCustomerProducts(ctx, ctx.auth, userCustomer(user.id), { limit: 1, cursor: first.nextCursor! }),
    );
    expect([second.items.map((p) => p.id), second.nextCursor]).toEqual([["enterprise-grant"], null]);
  });

  it("refuses a client acting for someone else (plain 403), an unknown customer and an unknown cursor", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect(
      (await seam.refuses(asClient(me), (ctx) => listCustomerProducts(ctx, ctx.auth, userCustomer(other.id), {}), 403))
        .message,
    ).toBe("Clients can only access their own user or team products.");
    await seam.refuses(
      asClient(),
      (ctx) => listCustomerProducts(ctx, ctx.auth, userCustomer(me.id), {}),
      "USER_AUTHENTICATION_REQUIRED",
    );
    await seam.refuses(
      asServer(),
      (ctx) => listCustomerProducts(ctx, ctx.auth, userCustomer(UNKNOWN_ID), {}),
      "USER_NOT_FOUND",
    );
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) => listCustomerProducts(ctx, ctx.auth, userCustomer(me.id), { cursor: "nothing-held" }),
          400,
        )
      ).message,
    ).toBe("Invalid cursor");
  });
});

describe("cancelProduct", () => {
  it("cancels a subscription, which stays held until its paid period ends", async () => {
    const seam = opSeam();
    const { customer, subscriptionId } = await teamWithPlan(seam);
    await seam.ok(asServer(), (ctx) =>
      cancelProduct(ctx, ctx.auth, { ...customer, product_id: "team-plan" }, undefined),
    );
    expect(await held(seam, customer)).toEqual([["team-plan", 1, "one_time"]]);
    // Cancelled once, there is no active subscription left to cancel by its id.
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) => cancelProduct(ctx, ctx.auth, { ...customer, product_id: "team-plan" }, subscriptionId!),
          400,
        )
      ).message,
    ).toBe("No active subscription found with this ID for the given customer.");
  });

  it("refuses a one-time product, a product not held, and a client acting for another user, with upstream's plain texts", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    await seam.ok(asServer(), (ctx) =>
      grantProduct(ctx, ctx.auth, userCustomer(me.id), { product_id: "credit-pack", quantity: 1 }),
    );
    const cancel = (userId: string, product_id: string) => (ctx: AuthedContext) =>
      cancelProduct(ctx, ctx.auth, { ...userCustomer(userId), product_id }, undefined);
    expect((await seam.refuses(asServer(), cancel(me.id, "credit-pack"), 400)).message).toBe(
      "This product is a one time purchase and cannot be canceled.",
    );
    expect((await seam.refuses(asServer(), cancel(other.id, "credit-pack"), 400)).message).toBe(
      "Customer does not have this product.",
    );
    expect((await seam.refuses(asClient(me), cancel(other.id, "credit-pack"), 403)).message).toBe(
      "Clients can only cancel their own subscriptions.",
    );
    await seam.refuses(asClient(), cancel(me.id, "credit-pack"), "USER_AUTHENTICATION_REQUIRED");
  });
});
