import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import type { CreatePurchaseUrlBody } from "@authsim/sdk/contract";
import { defaultSeed } from "../../../seed.ts";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import type { AuthedContext } from "../context.ts";
import { getItem } from "./items.ts";
import {
  CHECKOUT_SESSION_LIFETIME_MILLIS,
  checkoutPath,
  completeCheckout,
  createPurchaseUrl,
  openCheckoutSession,
} from "./purchases.ts";

/** Purchase URLs and their checkout (spec §7 create-purchase-url; upstream's purchase codes), at the ops' seam. */

const UNKNOWN_ID = "7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f";
const setUp = () => opSeam({ seed: { ...defaultSeed, paymentsSetUp: [devProjectSeed.id] } });
const forUser = (userId: string, extra: Partial<CreatePurchaseUrlBody>): CreatePurchaseUrlBody => ({
  customer_type: "user",
  customer_id: userId,
  ...extra,
});
const buy = (body: CreatePurchaseUrlBody) => (ctx: AuthedContext) => createPurchaseUrl(ctx, ctx.auth, body);
const inline = {
  display_name: "Inline",
  customer_type: "user" as const,
  server_only: false,
  hidden: false,
  stackable: false,
  prices: {},
  included_items: {},
};
const codeOf = (url: string) => decodeURIComponent(new URL(url).pathname.split("/").pop()!);
const credits = async (seam: OpSeam, userId: string) =>
  (
    await seam.ok(asServer(), (ctx) =>
      getItem(ctx, ctx.auth, { customer_type: "user", customer_id: userId, item_id: "credits" }),
    )
  ).quantity;

describe("createPurchaseUrl and completeCheckout", () => {
  it("answers the emulator's checkout page for a new code; completing it grants the items once", async () => {
    const seam = setUp();
    const user = await seam.addUser();
    const url = await seam.ok(
      asClient(user),
      buy(forUser(user.id, { product_id: "credit-pack", return_url: "http://localhost:3000/done" })),
    );
    const code = codeOf(url);
    expect(url).toBe(
      `${seam.settings.apiBaseUrl}${checkoutPath(code)}?return_url=${encodeURIComponent("http://localhost:3000/done")}`,
    );
    expect(code.startsWith(`${devProjectSeed.id}_`)).toBe(true);
    expect(seam.tables.checkoutSessions.get(code)).toMatchObject({
      customerId: user.id,
      offerId: "credit-pack",
      expiresAtMillis: seam.clock.now() + CHECKOUT_SESSION_LIFETIME_MILLIS,
      completedAtMillis: null,
    });
    await seam.ok((ctx) => completeCheckout(ctx, code, { quantity: 3 }));
    expect(await credits(seam, user.id)).toBe(300);
    await seam.refuses((ctx) => completeCheckout(ctx, code), "VERIFICATION_CODE_ALREADY_USED");
  });

  it("refuses an unknown code, and one past its 24 hours", async () => {
    const seam = setUp();
    const user = await seam.addUser();
    await seam.refuses(
      (ctx) => openCheckoutSession(ctx, `${devProjectSeed.id}_nosuchcode`),
      "VERIFICATION_CODE_NOT_FOUND",
    );
    const code = codeOf(await seam.ok(asClient(user), buy(forUser(user.id, { product_id: "credit-pack" }))));
    seam.clock.advance(CHECKOUT_SESSION_LIFETIME_MILLIS);
    await seam.refuses((ctx) => completeCheckout(ctx, code), "VERIFICATION_CODE_EXPIRED");
  });

  it("refuses every purchase before the project's payments are set up, before looking at the product", async () => {
    const seam = opSeam();
    const user = await seam.addUser();
    for (const product_id of ["credit-pack", "no-such-product"]) {
      expect((await seam.refuses(asClient(user), buy(forUser(user.id, { product_id })), 400)).message).toMatch(
        /^Payments are not set up in this Stack Auth project/,
      );
    }
  });

  it("keeps hidden and server-only products and inline products from clients", async () => {
    const seam = setUp();
    const user = await seam.addUser();
    expect(
      (await seam.refuses(asClient(user), buy(forUser(user.id, { product_id: "beta-pack" })), "PRODUCT_DOES_NOT_EXIST"))
        .details,
    ).toEqual({ product_id: "beta-pack", context: null });
    expect(
      (
        await seam.refuses(
          asClient(user),
          buy(forUser(user.id, { product_id: "enterprise-grant" })),
          "PRODUCT_DOES_NOT_EXIST",
        )
      ).details,
    ).toEqual({ product_id: "enterprise-grant", context: "server_only" });
    expect(
      (await seam.refuses(asClient(user), buy(forUser(user.id, { product_inline: inline })), 400)).message,
    ).toMatch(/^Cannot specify product_inline when calling from client!/);
    // A server may sell the hidden one by its id.
    expect(await seam.ok(asServer(), buy(forUser(user.id, { product_id: "beta-pack" })))).toContain(checkoutPath(""));
  });

  it("refuses naming a product both ways or not at all, an item's id, and a product for another customer type", async () => {
    const seam = setUp();
    const user = await seam.addUser();
    expect(
      (
        await seam.refuses(
          asServer(),
          buy(forUser(user.id, { product_id: "credit-pack", product_inline: inline })),
          400,
        )
      ).message,
    ).toBe("Cannot specify both product_id and product_inline!");
    expect((await seam.refuses(asServer(), buy(forUser(user.id, {})), 400)).message).toBe(
      "Must specify either product_id or product_inline!",
    );
    expect(
      (await seam.refuses(asServer(), buy(forUser(user.id, { product_id: "credits" })), "PRODUCT_DOES_NOT_EXIST"))
        .details,
    ).toEqual({ product_id: "credits", context: "item_exists" });
    await seam.refuses(
      asServer(),
      buy(forUser(user.id, { product_id: "team-plan" })),
      "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
    );
  });

  it("refuses a client buying for another user, an unknown customer and an untrusted return URL", async () => {
    const seam = setUp();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect((await seam.refuses(asClient(me), buy(forUser(other.id, { product_id: "credit-pack" })), 403)).message).toBe(
      "Clients can only create purchase URLs for their own user or teams they have admin access to.",
    );
    await seam.refuses(asServer(), buy(forUser(UNKNOWN_ID, { product_id: "credit-pack" })), "USER_NOT_FOUND");
    await seam.refuses(
      asServer(),
      buy(forUser(me.id, { product_id: "credit-pack", return_url: "https://evil.example.com/" })),
      "REDIRECT_URL_NOT_WHITELISTED",
    );
  });
});
