import { describe, expect } from "vitest";
import { controlOf, type Target } from "../targets.ts";
import {
  buyOnCheckoutPage,
  completeOnboardingPage,
  NO_PAYMENTS_CONFIG_REASON,
  providerNow,
  transactionsOf,
  useConformanceCatalogue,
} from "./payments-support.ts";
import {
  adminApp,
  expectKnownError,
  itIf,
  needs,
  serverApp,
  signedUpClient,
  uniqueTag,
  type Requirement,
} from "./support.ts";
import { expectPlainError, ownedProject } from "./admin-support.ts";

/**
 * Payments through the SDK (spec §3 "Item", §4 "Item quantity", §7, §8; sdk-surface.md §7, §8, §15): items of users,
 * teams and custom customers, purchases on the emulator's checkout page, a card saved through a setup intent the
 * emulator confirms, and the admin calls.
 */
export function paymentCases(getTarget: () => Target): void {
  const catalogue: Requirement = [getTarget().controls !== null, NO_PAYMENTS_CONFIG_REASON];
  const it = itIf(catalogue);
  // Cases on a project of their own need the internal project's dev keys to create it, too.
  const owned = itIf(catalogue[0] ? needs.internalDevKeys(getTarget()) : catalogue);

  describe("payments", () => {
    it("a purchase on the checkout page changes the item for the client and the server SDK, and is listed", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const { app: client, user, userId } = await signedUpClient(target);
      expect((await user.getItem("credits")).quantity).toBe(0);

      const url = await user.createCheckoutUrl({ offerId: "credit-pack" });
      await buyOnCheckoutPage(target, url, { quantity: 2 });

      const seenByClient = await (await client.getUser({ or: "throw" })).getItem("credits");
      expect(seenByClient).toEqual({ displayName: "Credits", quantity: 20, nonNegativeQuantity: 20 });
      expect((await client.getItem({ itemId: "credits", userId })).quantity).toBe(20);
      const server = serverApp(target);
      expect((await server.getItem({ itemId: "credits", userId })).quantity).toBe(20);
      expect((await (await server.getUser(userId))!.getItem("credits")).quantity).toBe(20);

      const transactions = await transactionsOf(adminApp(target), {
        customerType: "user",
        customerId: userId,
        type: "purchase",
      });
      expect(transactions).toHaveLength(1);
      expect(transactions[0]!.entries).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ type: "item_quantity_change", item_id: "credits", quantity: 20 }),
          expect.objectContaining({ type: "money_transfer", charged_amount: { USD: "8.00" } }),
        ]),
      );
    });

    it("server items increase, decrease below zero, and tryDecrease refuses (false) when short", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const server = serverApp(target);
      const customCustomerId = uniqueTag("org");
      const tokens = await server.getItem({ itemId: "tokens", customCustomerId });
      expect(tokens).toMatchObject({ displayName: "Tokens", quantity: 0, nonNegativeQuantity: 0 });
      await tokens.increaseQuantity(5);
      expect(await tokens.tryDecreaseQuantity(6)).toBe(false);
      expect(await tokens.tryDecreaseQuantity(5)).toBe(true);
      await tokens.decreaseQuantity(3);
      const after = await server.getItem({ itemId: "tokens", customCustomerId });
      expect(after).toMatchObject({ quantity: -3, nonNegativeQuantity: 0 });
      await expectKnownError(
        server.updateItemQuantity({ itemId: "tokens", customCustomerId, delta: -1 }),
        "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
        400,
      );
      await server.updateItemQuantity({ itemId: "tokens", customCustomerId, delta: -1, allowNegative: true });
      expect((await server.getItem({ itemId: "tokens", customCustomerId })).quantity).toBe(-4);
    });

    it("an expiring grant stops counting when the provider's clock passes its expiry", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const { user, userId } = await signedUpClient(target);
      const now = await providerNow(target);
      await adminApp(target).createItemQuantityChange({
        userId,
        itemId: "credits",
        quantity: 50,
        expiresAt: new Date(now + 60_000).toISOString(),
        description: "trial",
      });
      await serverApp(target).updateItemQuantity({ itemId: "credits", userId, delta: 1 });
      expect((await user.getItem("credits")).quantity).toBe(51);
      await target.controls!.advanceClock(61_000);
      expect((await user.getItem("credits")).quantity).toBe(1);
    });

    it("a team is a customer too: its creator (team_admin) reads its items, and its checkout grants them", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const { app: client, user, userId } = await signedUpClient(target);
      const serverTeam = await serverApp(target).createTeam({
        displayName: uniqueTag("Customers"),
        creatorUserId: userId,
      });
      expect((await client.getItem({ itemId: "seats", teamId: serverTeam.id })).quantity).toBe(0);
      const team = (await user.listTeams()).find((t) => t.id === serverTeam.id)!;
      await buyOnCheckoutPage(target, await team.createCheckoutUrl({ offerId: "team-pack" }));
      expect((await team.getItem("seats")).quantity).toBe(3);
      const serverSeats = await serverTeam.getItem("seats");
      await serverSeats.increaseQuantity(2);
      expect((await client.getItem({ itemId: "seats", teamId: serverTeam.id })).nonNegativeQuantity).toBe(5);
      const outsider = await signedUpClient(target);
      await expectKnownError(
        outsider.app.getItem({ itemId: "seats", teamId: serverTeam.id }),
        "TEAM_MEMBERSHIP_NOT_FOUND",
        404,
      );
    });

    it("item errors arrive as known errors with the catalogue's status", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const { app: client, userId } = await signedUpClient(target);
      const other = await signedUpClient(target);
      const server = serverApp(target);
      const notFound = await expectKnownError(server.getItem({ itemId: "gems", userId }), "ITEM_NOT_FOUND", 404);
      expect(notFound.details).toEqual({ item_id: "gems" });
      await expectKnownError(server.getItem({ itemId: "tokens", userId }), "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH", 400);
      await expectKnownError(server.getItem({ itemId: "credits", userId: crypto.randomUUID() }), "USER_NOT_FOUND", 404);
      // Another user's items: the real route's plain 403, not a known error.
      expect(await expectPlainError(client.getItem({ itemId: "credits", userId: other.userId }), 403)).toBe(
        "Clients can only access their own user or team items.",
      );
      await expect(client.getItem({ itemId: "credits" } as never)).rejects.toThrow(
        /exactly one of userId, teamId or customCustomerId/,
      );
    });

    it("offer errors: unknown, server-only for a client, and the wrong customer type", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const { user, userId } = await signedUpClient(target);
      const unknown = await expectKnownError(
        user.createCheckoutUrl({ offerId: "nope" }),
        "PRODUCT_DOES_NOT_EXIST",
        400,
      );
      expect(unknown.details).toMatchObject({ product_id: "nope" });
      const serverOnly = await expectKnownError(
        user.createCheckoutUrl({ offerId: "staff-grant" }),
        "PRODUCT_DOES_NOT_EXIST",
        400,
      );
      expect(serverOnly.details).toMatchObject({ context: "server_only" });
      await expectKnownError(
        user.createCheckoutUrl({ productId: "team-pack" }),
        "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
        400,
      );
      // The server may sell the server-only offer, and an inline one.
      const serverUser = (await serverApp(target).getUser(userId))!;
      await buyOnCheckoutPage(target, await serverUser.createCheckoutUrl({ offerId: "staff-grant" }));
      const inline = {
        display_name: "One-off",
        customer_type: "user" as const,
        prices: { once: { USD: "1.00" } },
        included_items: { credits: { quantity: 7 } },
      };
      await buyOnCheckoutPage(target, await serverUser.createCheckoutUrl({ offer: inline }));
      expect((await user.getItem("credits")).quantity).toBe(1007);
    });

    it("a checkout completes once; the second submission is refused", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const { user } = await signedUpClient(target);
      const url = await user.createCheckoutUrl({ offerId: "credit-pack" });
      await buyOnCheckoutPage(target, url);
      const again = await target.fetch(url);
      expect(again.status).toBe(409);
      expect(await again.text()).toContain('data-known-error="VERIFICATION_CODE_ALREADY_USED"');
      expect((await user.getItem("credits")).quantity).toBe(10);
    });

    it("a card confirmed on a setup intent becomes the default the client and the server read back; refusals are plain 4xx", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const { user, userId } = await signedUpClient(target);
      const setup = await user.createPaymentMethodSetupIntent();
      expect(setup.stripeAccountId).toMatch(/^acct_/);
      const intentId = setup.clientSecret.slice(0, setup.clientSecret.indexOf("_secret_"));
      expect(await expectPlainError(user.setDefaultPaymentMethodFromSetupIntent(intentId), 400)).toBe(
        "Setup intent has not succeeded.",
      );

      const confirmed = await controlOf(target).call("confirmSetupIntent", {
        body: { client_secret: setup.clientSecret, card: { number: "5555555555554444", exp_month: 6, exp_year: 2033 } },
      });
      expect(confirmed).toMatchObject({ id: intentId, status: "succeeded" });
      const card = {
        id: expect.stringMatching(/^pm_/),
        brand: "mastercard",
        last4: "4444",
        exp_month: 6,
        exp_year: 2033,
      };
      expect(await user.setDefaultPaymentMethodFromSetupIntent(intentId)).toEqual(card);
      expect(await user.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: card });
      expect(await (await serverApp(target).getUser(userId))!.getBilling()).toEqual({
        hasCustomer: true,
        defaultPaymentMethod: card,
      });

      // Another user may not take the intent for itself; an intent the provider never made is the provider's 404.
      const other = await signedUpClient(target);
      expect(await expectPlainError(other.user.setDefaultPaymentMethodFromSetupIntent(intentId), 403)).toBe(
        "Setup intent does not belong to this customer.",
      );
      expect(
        await expectPlainError(
          serverApp(target)
            .getUser(userId)
            .then((u) => u!.setDefaultPaymentMethodFromSetupIntent("seti_unknown")),
          404,
        ),
      ).toBe("No such setupintent: 'seti_unknown'");
    });

    // A project of its own: the target's may have its payments set up already (authsim's dev server seeds it so).
    owned("admin: no account info before setup, onboarding enables the account, and a widget session", async () => {
      const target = getTarget();
      const { admin } = await ownedProject(target);
      expect(await admin.getStripeAccountInfo()).toBeNull();
      const { url } = await admin.setupPayments();
      const created = await admin.getStripeAccountInfo();
      expect(created).toMatchObject({
        account_id: expect.stringMatching(/^acct_/),
        charges_enabled: false,
        payouts_enabled: false,
      });
      await completeOnboardingPage(target, url);
      expect(await admin.getStripeAccountInfo()).toEqual({
        ...created,
        charges_enabled: true,
        details_submitted: true,
        payouts_enabled: true,
      });
      expect((await admin.createStripeWidgetAccountSession()).client_secret).toContain(created!.account_id);
    });

    it("admin: transactions page newest first with nextCursor, each once, filtered by customer type", async () => {
      const target = getTarget();
      await useConformanceCatalogue(target);
      const admin = adminApp(target);
      const customCustomerId = uniqueTag("ledger");
      for (const quantity of [1, 2, 3, 4, 5])
        await admin.createItemQuantityChange({ customCustomerId, itemId: "tokens", quantity });
      const all = await transactionsOf(admin, { customerType: "custom", customerId: customCustomerId });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await admin.listTransactions({ customerType: "custom", limit: 2, ...(cursor ? { cursor } : {}) });
        expect(page.transactions.length).toBeLessThanOrEqual(2);
        for (const t of page.transactions) {
          expect(t.entries[0]).toMatchObject({ customer_type: "custom" });
          if (t.entries[0]?.type === "item_quantity_change" && t.entries[0].customer_id === customCustomerId)
            seen.push(t.id);
        }
        cursor = page.nextCursor ?? undefined;
        pages += 1;
      } while (cursor && seen.length < 5 && pages < 200);
      // Walking pages of two gives the same transactions in the same order as one long page.
      expect(seen).toEqual(all.map((t) => t.id));
      expect(all.map((t) => t.type)).toEqual(Array(5).fill("manual-item-quantity-change"));
      const quantities = all.map((t) => (t.entries[0]?.type === "item_quantity_change" ? t.entries[0].quantity : 0));
      // Newest first; changes made in one millisecond are ordered by transaction id, so only the set is fixed.
      expect([...quantities].sort()).toEqual([1, 2, 3, 4, 5]);
      const times = all.map((t) => t.created_at_millis);
      expect(times).toEqual([...times].sort((a, b) => b - a));
    });
  });
}
