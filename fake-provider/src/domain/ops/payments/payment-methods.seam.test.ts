import { describe, expect, it } from "vitest";
import { devProjectSeed } from "@authsim/fixtures";
import { defaultSeed } from "../../../seed.ts";
import { asClient, asServer, opSeam, type OpSeam } from "../../../test-support/op-seam.ts";
import type { UserRecord } from "../../store/records.ts";
import {
  billingOf,
  confirmSetupIntent,
  createSetupIntent,
  setDefaultPaymentMethod,
  TEST_CARD,
} from "./payment-methods.ts";
import { addTeamMember } from "../teams/team-members.ts";
import { createTeam } from "../teams/teams.ts";

/** A customer's payment method: billing, setup intents, their confirmation and set-default, at the ops' seam. */

const UNKNOWN_ID = "7d3f7c1e-0b6a-4c8e-9f11-2a5b6c7d8e9f";
const userCustomer = (id: string) => ({ customer_type: "user", customer_id: id }) as const;
const teamCustomer = (id: string) => ({ customer_type: "team", customer_id: id }) as const;
const withPayments = () => opSeam({ seed: { ...defaultSeed, paymentsSetUp: [devProjectSeed.id] } });
const intentIdOf = (clientSecret: string) => clientSecret.slice(0, clientSecret.indexOf("_secret_"));

/** A setup intent of the user, made by the user's client. */
async function intentOf(seam: OpSeam, user: UserRecord) {
  const { client_secret } = await seam.ok(asClient(user), (ctx) =>
    createSetupIntent(ctx, ctx.auth, userCustomer(user.id)),
  );
  return { clientSecret: client_secret, id: intentIdOf(client_secret) };
}

describe("billingOf", () => {
  it("has no payment-provider customer before the project's payments are set up, the test card after", async () => {
    const before = opSeam();
    const a = await before.addUser();
    expect(await before.ok(asClient(a), (ctx) => billingOf(ctx, ctx.auth, userCustomer(a.id)))).toEqual({
      has_customer: false,
      default_payment_method: null,
    });
    const after = withPayments();
    const b = await after.addUser();
    expect(await after.ok(asClient(b), (ctx) => billingOf(ctx, ctx.auth, userCustomer(b.id)))).toEqual({
      has_customer: true,
      default_payment_method: TEST_CARD,
    });
  });

  it("once payments are set up, answers USER_NOT_FOUND / TEAM_NOT_FOUND for a customer that does not exist (before, there is no customer to look up)", async () => {
    const seam = withPayments();
    await seam.refuses(asServer(), (ctx) => billingOf(ctx, ctx.auth, userCustomer(UNKNOWN_ID)), "USER_NOT_FOUND");
    await seam.refuses(asServer(), (ctx) => billingOf(ctx, ctx.auth, teamCustomer(UNKNOWN_ID)), "TEAM_NOT_FOUND");
    expect(await opSeam().ok(asServer(), (ctx) => billingOf(ctx, ctx.auth, userCustomer(UNKNOWN_ID)))).toEqual({
      has_customer: false,
      default_payment_method: null,
    });
  });

  it("refuses a client asking about another user's billing (plain 403)", async () => {
    const seam = opSeam();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    expect(
      (await seam.refuses(asClient(me), (ctx) => billingOf(ctx, ctx.auth, userCustomer(other.id)), 403)).message,
    ).toBe("Clients can only manage their own billing.");
  });
});

describe("a setup intent, confirmed, set as the default", () => {
  it("saves the confirmed card as the customer's default, which billing then reports; other customers keep theirs", async () => {
    const seam = withPayments();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    const intent = await intentOf(seam, me);
    expect(seam.tables.setupIntents.size).toBe(1);
    const confirmed = await seam.ok((ctx) =>
      confirmSetupIntent(ctx, intent.clientSecret, { number: "5555 5555 5555 4444", exp_month: 3, exp_year: 2031 }),
    );
    const card = {
      id: expect.stringMatching(/^pm_[0-9a-z]+$/),
      brand: "mastercard",
      last4: "4444",
      exp_month: 3,
      exp_year: 2031,
    };
    expect(confirmed).toEqual({
      id: intent.id,
      status: "succeeded",
      customer_type: "user",
      customer_id: me.id,
      payment_method: card,
    });

    const answer = await seam.ok(asClient(me), (ctx) =>
      setDefaultPaymentMethod(ctx, ctx.auth, userCustomer(me.id), { setup_intent_id: intent.id }),
    );
    expect(answer).toEqual({ success: true, default_payment_method: confirmed.payment_method });
    expect(await seam.ok(asClient(me), (ctx) => billingOf(ctx, ctx.auth, userCustomer(me.id)))).toEqual({
      has_customer: true,
      default_payment_method: confirmed.payment_method,
    });
    expect(await seam.ok(asClient(other), (ctx) => billingOf(ctx, ctx.auth, userCustomer(other.id)))).toEqual({
      has_customer: true,
      default_payment_method: TEST_CARD,
    });

    // A second card replaces the first; the server may set it for any customer.
    const next = await intentOf(seam, me);
    const amex = await seam.ok((ctx) => confirmSetupIntent(ctx, next.clientSecret, { number: "378282246310005" }));
    expect(amex.payment_method).toMatchObject({
      brand: "amex",
      last4: "0005",
      exp_month: 12,
      exp_year: new Date(seam.clock.now()).getUTCFullYear() + 5,
    });
    await seam.ok(asServer(), (ctx) =>
      setDefaultPaymentMethod(ctx, ctx.auth, userCustomer(me.id), { setup_intent_id: next.id }),
    );
    expect(
      (await seam.ok(asServer(), (ctx) => billingOf(ctx, ctx.auth, userCustomer(me.id)))).default_payment_method,
    ).toEqual(amex.payment_method);
  });

  it("refuses an intent that was not confirmed, another customer's, one the provider never made, each writing nothing", async () => {
    const seam = withPayments();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    const waiting = await intentOf(seam, me);
    expect(
      (
        await seam.refuses(
          asClient(me),
          (ctx) => setDefaultPaymentMethod(ctx, ctx.auth, userCustomer(me.id), { setup_intent_id: waiting.id }),
          400,
        )
      ).message,
    ).toBe("Setup intent has not succeeded.");
    await seam.ok((ctx) => confirmSetupIntent(ctx, waiting.clientSecret));
    expect(
      (
        await seam.refuses(
          asServer(),
          (ctx) => setDefaultPaymentMethod(ctx, ctx.auth, userCustomer(other.id), { setup_intent_id: waiting.id }),
          403,
        )
      ).message,
    ).toBe("Setup intent does not belong to this customer.");
    expect(
      (
        await seam.refuses(
          asClient(me),
          (ctx) => setDefaultPaymentMethod(ctx, ctx.auth, userCustomer(me.id), { setup_intent_id: "seti_nothing" }),
          404,
        )
      ).message,
    ).toBe("No such setupintent: 'seti_nothing'");
    // The customer is looked up once the intent is found (upstream's order).
    await seam.refuses(
      asServer(),
      (ctx) => setDefaultPaymentMethod(ctx, ctx.auth, userCustomer(UNKNOWN_ID), { setup_intent_id: waiting.id }),
      "USER_NOT_FOUND",
    );
    expect(seam.tables.defaultPaymentMethods.size).toBe(0);
  });

  it("refuses a client acting for someone else, a signed-out client, and a project without payments, in upstream's order", async () => {
    const seam = withPayments();
    const [me, other] = [await seam.addUser(), await seam.addUser()];
    const mine = await intentOf(seam, me);
    const setFor =
      (customer: ReturnType<typeof userCustomer> | ReturnType<typeof teamCustomer>, id = mine.id) =>
      (ctx: Parameters<typeof setDefaultPaymentMethod>[0] & { auth: Parameters<typeof setDefaultPaymentMethod>[1] }) =>
        setDefaultPaymentMethod(ctx, ctx.auth, customer, { setup_intent_id: id });
    expect((await seam.refuses(asClient(me), setFor(userCustomer(other.id)), 403)).message).toBe(
      "Clients can only manage their own payment method.",
    );
    await seam.refuses(asClient(), setFor(userCustomer(me.id)), "USER_AUTHENTICATION_REQUIRED");

    const none = opSeam();
    const user = await none.addUser();
    expect((await none.refuses(asClient(user), setFor(userCustomer(user.id), "seti_nothing"), 400)).message).toMatch(
      /^Payments are not set up in this Stack Auth project\./,
    );
  });

  it("lets a team's team_admin manage its card, not a plain member", async () => {
    const seam = withPayments();
    const [admin, member] = [await seam.addUser(), await seam.addUser()];
    const team = await seam.ok(asClient(admin), (ctx) => createTeam(ctx, { display_name: "Billing" }));
    await seam.ok(asServer(), (ctx) => addTeamMember(ctx, team.id, member.id));
    const { client_secret } = await seam.ok(asClient(admin), (ctx) =>
      createSetupIntent(ctx, ctx.auth, teamCustomer(team.id)),
    );
    await seam.ok((ctx) => confirmSetupIntent(ctx, client_secret, { number: "4000056655665556" }));
    const setDefault = (
      ctx: Parameters<typeof setDefaultPaymentMethod>[0] & { auth: Parameters<typeof setDefaultPaymentMethod>[1] },
    ) => setDefaultPaymentMethod(ctx, ctx.auth, teamCustomer(team.id), { setup_intent_id: intentIdOf(client_secret) });
    expect((await seam.refuses(asClient(member), setDefault, "TEAM_PERMISSION_REQUIRED")).details).toEqual({
      team_id: team.id,
      user_id: member.id,
      permission_id: "team_admin",
    });
    expect((await seam.ok(asClient(admin), setDefault)).default_payment_method).toMatchObject({
      brand: "visa",
      last4: "5556",
    });
    expect(
      (await seam.ok(asClient(admin), (ctx) => billingOf(ctx, ctx.auth, teamCustomer(team.id)))).default_payment_method,
    ).toMatchObject({ last4: "5556" });
  });
});

describe("confirmSetupIntent (the provider's browser side)", () => {
  it("refuses an unknown secret, a number that is not one, an expired card, a declined test card, and a second confirmation", async () => {
    const seam = withPayments();
    const me = await seam.addUser();
    const intent = await intentOf(seam, me);
    expect((await seam.refuses((ctx) => confirmSetupIntent(ctx, "seti_x_secret_y"), 404)).message).toBe(
      "No setup intent has this client secret.",
    );
    expect(
      (await seam.refuses((ctx) => confirmSetupIntent(ctx, intent.clientSecret, { number: "4242424242424241" }), 400))
        .message,
    ).toBe("Your card number is invalid.");
    expect(
      (await seam.refuses((ctx) => confirmSetupIntent(ctx, intent.clientSecret, { number: "4242-4242" }), 400)).message,
    ).toBe("Your card number is invalid.");
    // The clock decides expiry: a card of the month before the clock's has expired, one of the clock's month has not.
    const now = new Date(seam.clock.now());
    const [year, month] = [now.getUTCFullYear(), now.getUTCMonth() + 1];
    const lastMonth = month === 1 ? { exp_month: 12, exp_year: year - 1 } : { exp_month: month - 1, exp_year: year };
    expect((await seam.refuses((ctx) => confirmSetupIntent(ctx, intent.clientSecret, lastMonth), 400)).message).toBe(
      "Your card has expired.",
    );
    expect(
      (await seam.refuses((ctx) => confirmSetupIntent(ctx, intent.clientSecret, { number: "4000000000000002" }), 402))
        .message,
    ).toBe("Your card was declined.");
    expect(seam.tables.setupIntents.lookup("clientSecret", intent.clientSecret)).toMatchObject({
      status: "requires_payment_method",
      card: null,
    });

    expect(
      (await seam.ok((ctx) => confirmSetupIntent(ctx, intent.clientSecret, { exp_month: month, exp_year: year })))
        .status,
    ).toBe("succeeded");
    expect((await seam.refuses((ctx) => confirmSetupIntent(ctx, intent.clientSecret), 400)).message).toMatch(
      /^This setup intent has already succeeded/,
    );
  });
});
