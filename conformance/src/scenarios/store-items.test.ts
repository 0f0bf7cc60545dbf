import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { CustomerOptions } from "@authsim/sdk";
import { buyOnCheckoutPage, completeCheckoutPage, transactionsOf } from "../suites/payments-support.ts";
import { expectPlainError } from "../suites/admin-support.ts";
import { adminApp, expectKnownError, serverApp } from "../suites/support.ts";
import { loadScenario, readScenario, signedIn } from "./load-scenario.ts";

/**
 * Fixture-driven scenario (issue 10): the store of fixtures/scenarios/store-items.json loaded into a fresh fake, then
 * driven through the SDK as a shop would: shoppers read their credits and coupons, the server charges and refunds
 * (spec §4 "Item quantity": increase adds, decrease may go negative, try-decrease refuses when short), a team buys
 * licenses and a shopper buys offers on the emulator's test-mode checkout page, each offer by its catalogue rules.
 */
const scenario = readScenario("store-items.json");
const load = () => loadScenario(scenario);

describe("scenario: a store with items", () => {
  it("shows shoppers and the server the quantities the fixture declares, the overdrawn balance and the partner's included", async () => {
    const { target, project } = await load();
    const olivia = await signedIn(target, "olivia@bytebazaar.test");
    expect(await olivia.user.getItem("store-credit")).toEqual({
      displayName: "Store credit",
      quantity: 40,
      nonNegativeQuantity: 40,
    });
    expect(await olivia.app.getItem({ itemId: "coupons", userId: project.users.olivia! })).toMatchObject({
      displayName: "Coupons",
      quantity: 2,
    });
    const sam = await signedIn(target, "sam@bytebazaar.test");
    expect(await sam.user.getItem("store-credit")).toEqual({
      displayName: "Store credit",
      quantity: 0,
      nonNegativeQuantity: 0,
    });

    const server = serverApp(target);
    expect(await server.getItem({ itemId: "store-credit", userId: project.users.quinn! })).toMatchObject({
      quantity: -5,
      nonNegativeQuantity: 0,
    });
    expect((await server.getItem({ itemId: "api-calls", customCustomerId: "partner-acme" })).quantity).toBe(1000);
    // A shopper reads only their own items; items serve one customer type.
    // Another user's items: the real route's plain 403.
    expect(
      await expectPlainError(olivia.app.getItem({ itemId: "store-credit", userId: project.users.sam! }), 403),
    ).toBe("Clients can only access their own user or team items.");
    await expectKnownError(
      server.getItem({ itemId: "licenses", userId: project.users.olivia! }),
      "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
      400,
    );
  });

  it("changes quantities as the model says: increase adds, decrease may go negative, tryDecrease refuses when short", async () => {
    const { target, project } = await load();
    const server = serverApp(target);
    const baseline = target.provider.snapshot();
    // Starting from the fixture's balances: plenty, overdrawn, and a custom customer's.
    const customers: { who: CustomerOptions; itemId: string; start: number }[] = [
      { who: { userId: project.users.olivia! }, itemId: "store-credit", start: 40 },
      { who: { userId: project.users.quinn! }, itemId: "store-credit", start: -5 },
      { who: { customCustomerId: "partner-acme" }, itemId: "api-calls", start: 1000 },
    ];
    // Small amounts, the fixture's balances exactly (the boundary of tryDecrease), and large ones.
    const amount = fc.oneof(
      fc.integer({ min: 1, max: 50 }),
      fc.constantFrom(5, 40, 1000),
      fc.integer({ min: 1, max: 1200 }),
    );
    const step = fc.record({ kind: fc.constantFrom("increase", "decrease", "tryDecrease"), amount });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...customers),
        fc.array(step, { maxLength: 8 }),
        async ({ who, itemId, start }, steps) => {
          target.provider.restore(baseline);
          const item = await server.getItem({ itemId, ...who });
          let model = start;
          for (const { kind, amount } of steps) {
            if (kind === "increase") await item.increaseQuantity(amount);
            if (kind === "decrease") await item.decreaseQuantity(amount);
            if (kind === "tryDecrease") expect(await item.tryDecreaseQuantity(amount)).toBe(model >= amount);
            if (kind === "increase") model += amount;
            else if (kind === "decrease" || model >= amount) model -= amount;
          }
          expect(await server.getItem({ itemId, ...who })).toMatchObject({
            quantity: model,
            nonNegativeQuantity: Math.max(0, model),
          });
        },
      ),
      { numRuns: 30 },
    );
  });

  it("lets the team's admin read its licenses and buy more on the checkout page (yearly price, stackable); plain members and outsiders may not", async () => {
    const { target, project } = await load();
    // Purchase URLs need the project's payments account, as on the real service.
    await adminApp(target).setupPayments();
    const studioId = project.teams.studio!;
    const taylor = await signedIn(target, "taylor@pixelstudio.test");
    expect(taylor.user.selectedTeam?.id).toBe(studioId);
    const team = (await taylor.user.getTeam(studioId))!;
    expect(await team.getItem("licenses")).toEqual({
      displayName: "Team licenses",
      quantity: 3,
      nonNegativeQuantity: 3,
    });

    await buyOnCheckoutPage(target, await team.createCheckoutUrl({ offerId: "team-licenses" }), {
      priceId: "yearly",
      quantity: 2,
    });
    expect((await taylor.app.getItem({ itemId: "licenses", teamId: studioId })).quantity).toBe(13);
    // A plain member (team_member only) may not read the team's items: the real route asks for team_admin.
    const uma = await signedIn(target, "uma@pixelstudio.test");
    await expectKnownError(uma.app.getItem({ itemId: "licenses", teamId: studioId }), "TEAM_PERMISSION_REQUIRED", 401);
    const olivia = await signedIn(target, "olivia@bytebazaar.test");
    // Not a member of the team at all.
    await expectKnownError(
      olivia.app.getItem({ itemId: "licenses", teamId: studioId }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      404,
    );

    const transactions = await transactionsOf(adminApp(target), {
      customerType: "team",
      customerId: studioId,
      type: "purchase",
    });
    expect(transactions).toHaveLength(1);
    expect(transactions[0]!.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: "product_grant",
          product_id: "team-licenses",
          price_id: "yearly",
          quantity: 2,
        }),
        expect.objectContaining({ type: "item_quantity_change", item_id: "licenses", quantity: 10 }),
        expect.objectContaining({ type: "money_transfer", charged_amount: { USD: "980.00" } }),
      ]),
    );
  });

  it("sells each offer by its rules: a stackable pack again and again, a bundle once, server-only and hidden offers not to clients", async () => {
    const { target, project } = await load();
    // Purchase URLs need the project's payments account, as on the real service.
    await adminApp(target).setupPayments();
    const { user } = await signedIn(target, "sam@bytebazaar.test");
    await buyOnCheckoutPage(target, await user.createCheckoutUrl({ offerId: "credit-pack" }), { quantity: 3 });
    await buyOnCheckoutPage(target, await user.createCheckoutUrl({ productId: "credit-pack" }));
    expect((await user.getItem("store-credit")).quantity).toBe(40);

    await buyOnCheckoutPage(target, await user.createCheckoutUrl({ offerId: "starter-bundle" }));
    expect([(await user.getItem("store-credit")).quantity, (await user.getItem("coupons")).quantity]).toEqual([60, 1]);
    await expectKnownError(user.createCheckoutUrl({ offerId: "starter-bundle" }), "PRODUCT_ALREADY_GRANTED", 400);

    const serverOnly = await expectKnownError(
      user.createCheckoutUrl({ offerId: "loyalty-gift" }),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
    expect(serverOnly.details).toMatchObject({ context: "server_only" });
    const hidden = await expectKnownError(
      user.createCheckoutUrl({ offerId: "vip-preview" }),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
    expect(hidden.details).toMatchObject({ product_id: "vip-preview", context: null });
    await expectKnownError(
      user.createCheckoutUrl({ offerId: "team-licenses" }),
      "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
      400,
    );

    // The server may give what clients may not buy: the free loyalty gift, through the same checkout page.
    const asServer = (await serverApp(target).getUser(project.users.sam!))!;
    await buyOnCheckoutPage(target, await asServer.createCheckoutUrl({ offerId: "loyalty-gift" }));
    expect((await user.getItem("store-credit")).quantity).toBe(85);
  });

  it("sends the shopper back to the store's return URL after checkout, and refuses a return URL off the store's domains", async () => {
    const { target } = await load();
    // Purchase URLs need the project's payments account, as on the real service.
    await adminApp(target).setupPayments();
    const { user } = await signedIn(target, "olivia@bytebazaar.test");
    const url = await user.createCheckoutUrl({
      offerId: "credit-pack",
      returnUrl: "http://localhost:3000/store/thanks",
    });
    const done = await completeCheckoutPage(target, url);
    expect({ status: done.status, location: done.headers.get("location") }).toEqual({
      status: 303,
      location: "http://localhost:3000/store/thanks",
    });
    expect((await user.getItem("store-credit")).quantity).toBe(50);
    await expectKnownError(
      user.createCheckoutUrl({ offerId: "credit-pack", returnUrl: "https://evil.example.net/thanks" }),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
  });
});
