import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DEV,
  ORIGIN,
  START_MILLIS,
  admin,
  api,
  client,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import {
  buy,
  expectPageError,
  pathOf,
  purchaseUrl,
  quantity,
  seedTeam,
  setUpPayments,
  submitCheckout,
  transactions,
  useTestCatalogue,
} from "../../../test-support/payments.ts";
import { defaultSeed } from "../../../seed.ts";

/**
 * Offers and purchases (spec §7 create-purchase-url; protocol.md §3 PRODUCT_* codes): the purchase URL, the emulator's
 * checkout page, the grant of items and the recorded purchase.
 */

let provider: TestProvider;
let user: SignedUp;
beforeEach(async () => {
  provider = newProvider();
  await useTestCatalogue(provider);
  await setUpPayments(provider);
  user = await signUp(provider);
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const createUrl = (body: Record<string, unknown>, headers = client({ accessToken: user.access_token })) =>
  api(provider, "/payments/purchases/create-purchase-url", { headers, json: body });
const forUser = (extra: Record<string, unknown>) => ({ customer_type: "user", customer_id: user.user_id, ...extra });

describe("POST /payments/purchases/create-purchase-url", () => {
  it("needs the project's payments account: before setup a plain 400, checked before the product is looked up", async () => {
    const fresh = newProvider();
    await useTestCatalogue(fresh);
    const buyer = await signUp(fresh);
    for (const product_id of ["pack", "no-such-product"]) {
      const refused = await api(fresh, "/payments/purchases/create-purchase-url", {
        headers: client({ accessToken: buyer.access_token }),
        json: { customer_type: "user", customer_id: buyer.user_id, product_id },
      });
      expect([refused.status, await refused.text()]).toEqual([
        400,
        "Payments are not set up in this Stack Auth project. Please go to the Stack Auth dashboard and complete the Payments onboarding.",
      ]);
    }
    expect(fresh.unexpected).toEqual([]);
  });

  it("sells at once in a project seeded with its payments set up (the dev server's dev project)", async () => {
    const seeded = newProvider({ seed: { ...defaultSeed, paymentsSetUp: [DEV.id] } });
    const account = await expectJson<{ account_id: string; charges_enabled: boolean }>(
      await api(seeded, "/internal/payments/stripe/account-info", { headers: admin() }),
    );
    expect(account).toMatchObject({ account_id: expect.stringMatching(/^acct_authsim_/), charges_enabled: true });
    await useTestCatalogue(seeded);
    const buyer = await signUp(seeded);
    const answer = await api(seeded, "/payments/purchases/create-purchase-url", {
      headers: client({ accessToken: buyer.access_token }),
      json: { customer_type: "user", customer_id: buyer.user_id, product_id: "pack" },
    });
    expect(answer.status).toBe(200);
    expect(seeded.unexpected).toEqual([]);
  });

  it("answers a URL of the emulator's checkout page, whose form completes the purchase", async () => {
    const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ offer_id: "pack" }));
    expect(url).toMatch(new RegExp(`^${ORIGIN}/__emulator/purchase/${DEV.id}_[0-9a-z]{45}$`));
    const page = await request(provider, pathOf(url));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await page.text();
    expect(html).toContain("Credit pack");
    // The form posts to the page's older path, the one the dev server's request guard lets forms reach.
    expect(html).toContain(
      `<form method="post" action="${pathOf(url).replace("/__emulator/purchase/", "/__emulator/checkout/")}">`,
    );
    expect(html).toContain("Complete purchase");
    expect(html).not.toMatch(/<script|https?:\/\/(?!localhost)/);

    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(0);
    await buy(provider, url);
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(10);
  });

  it("accepts the published SDK's product_id spelling", async () => {
    await buy(
      provider,
      await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ product_id: "pack" })),
    );
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(10);
  });

  it("records a purchase transaction with the grant, the item changes and the amount", async () => {
    const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ offer_id: "pack" }));
    await buy(provider, url, { price_id: "once", quantity: "3" });
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(30);
    const [purchase] = (await transactions(provider)).transactions;
    const who = {
      customer_type: "user",
      customer_id: user.user_id,
      adjusted_transaction_id: null,
      adjusted_entry_index: null,
    };
    expect(purchase).toMatchObject({
      type: "purchase",
      test_mode: false,
      created_at_millis: START_MILLIS,
      adjusted_by: [],
    });
    // The transaction of a one-time purchase has the purchase's id (as upstream lists it); the customer is per entry.
    expect(purchase).not.toHaveProperty("customer_id");
    expect(purchase!.entries[0]).toMatchObject({ one_time_purchase_id: purchase!.id });
    expect(purchase!.entries).toEqual([
      expect.objectContaining({
        type: "product_grant",
        ...who,
        product_id: "pack",
        price_id: "once",
        quantity: 3,
        product: expect.objectContaining({ display_name: "Credit pack", client_metadata: null, server_metadata: null }),
      }),
      { type: "item_quantity_change", ...who, item_id: "credits", quantity: 30 },
      { type: "money_transfer", ...who, charged_amount: { USD: "7.50" }, net_amount: { USD: "7.50" } },
    ]);
  });

  it("redirects to a trusted return_url after the purchase, and refuses an untrusted one", async () => {
    const url = await purchaseUrl(
      provider,
      client({ accessToken: user.access_token }),
      forUser({ offer_id: "pack", return_url: "http://localhost:3000/thanks" }),
    );
    const done = await submitCheckout(provider, url);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("http://localhost:3000/thanks");
    await expectKnownError(
      await createUrl(forUser({ offer_id: "pack", return_url: "https://evil.example.com/" })),
      "REDIRECT_URL_NOT_WHITELISTED",
      400,
    );
  });

  it("completes a checkout once: the second submission is VERIFICATION_CODE_ALREADY_USED (409)", async () => {
    const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ offer_id: "pack" }));
    await buy(provider, url);
    await expectPageError(await submitCheckout(provider, url), "VERIFICATION_CODE_ALREADY_USED", 409);
    await expectPageError(await request(provider, pathOf(url)), "VERIFICATION_CODE_ALREADY_USED", 409);
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(10);
  });

  it("expires a checkout after 24 hours (VERIFICATION_CODE_EXPIRED) and does not know made-up codes", async () => {
    const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ offer_id: "pack" }));
    provider.clock.advance(24 * 60 * 60 * 1000);
    await expectPageError(await submitCheckout(provider, url), "VERIFICATION_CODE_EXPIRED", 400);
    await expectPageError(
      await request(provider, `/__emulator/checkout/${DEV.id}_nope`),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
  });

  it("answers PRODUCT_DOES_NOT_EXIST (400) for an unknown offer, saying when the id is an item's", async () => {
    const unknown = await expectKnownError(
      await createUrl(forUser({ offer_id: "nothing" })),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
    expect(unknown.details).toEqual({ product_id: "nothing", context: null });
    const item = await expectKnownError(
      await createUrl(forUser({ offer_id: "credits" })),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
    expect(item.details).toEqual({ product_id: "credits", context: "item_exists" });
    expect([unknown.error, item.error]).toEqual([
      'Product with ID "nothing" does not exist.',
      'Product with ID "credits" does not exist, but an item with this ID exists.',
    ]);
  });

  it("names a server-only offer to a client as such, but hides a hidden one entirely; the server may use both", async () => {
    const serverOnly = await expectKnownError(
      await createUrl(forUser({ offer_id: "secret" })),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
    expect(serverOnly.details).toEqual({ product_id: "secret", context: "server_only" });
    expect(serverOnly.error).toBe(
      'Product with ID "secret" is marked as server-only and cannot be accessed client side.',
    );
    const hidden = await expectKnownError(
      await createUrl(forUser({ offer_id: "unlisted" })),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
    expect(hidden.details).toEqual({ product_id: "unlisted", context: null });
    await buy(provider, await purchaseUrl(provider, server(), forUser({ offer_id: "secret" })));
    await buy(provider, await purchaseUrl(provider, server(), forUser({ offer_id: "unlisted" })));
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(3);
  });

  it("answers PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH (400) when the offer is for another customer type", async () => {
    const body = await expectKnownError(
      await createUrl(forUser({ offer_id: "team-pack" })),
      "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
      400,
    );
    expect(body.details).toEqual({
      product_id: "team-pack",
      customer_id: user.user_id,
      product_customer_type: "team",
      actual_customer_type: "user",
    });
  });

  it("takes an inline offer from the server only (upstream's plain 400 for a client)", async () => {
    const inline = {
      display_name: "Custom deal",
      customer_type: "user",
      prices: { deal: { USD: "3.00" } },
      included_items: { credits: { quantity: 42 } },
    };
    const refused = await createUrl(forUser({ inline_offer: inline }));
    expect([refused.status, await refused.text()]).toEqual([
      400,
      "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.",
    ]);
    await buy(provider, await purchaseUrl(provider, server(), forUser({ inline_offer: inline })));
    await buy(provider, await purchaseUrl(provider, server(), forUser({ product_inline: inline })));
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(84);
    // The older alias offer_inline is the same field, with the same client refusal.
    const refusedOld = await createUrl(forUser({ offer_inline: inline }));
    expect([refusedOld.status, await refusedOld.text()]).toEqual([
      refused.status,
      "Cannot specify product_inline when calling from client! Please call with a server API key, or use the product_id parameter.",
    ]);
    await buy(provider, await purchaseUrl(provider, server(), forUser({ offer_inline: inline })));
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(126);
    const inlineWithUnknownItem = { ...inline, included_items: { gold: { quantity: 1 } } };
    await expectKnownError(
      await createUrl(forUser({ inline_offer: inlineWithUnknownItem }), server()),
      "ITEM_NOT_FOUND",
      404,
    );
  });

  it("needs a product id or an inline product, not both (upstream's plain 400s)", async () => {
    const none = await createUrl(forUser({}), server());
    expect([none.status, await none.text()]).toEqual([400, "Must specify either product_id or product_inline!"]);
    const both = await createUrl(
      forUser({
        product_id: "pack",
        product_inline: { display_name: "x", customer_type: "user", prices: {}, included_items: {} },
      }),
      server(),
    );
    expect([both.status, await both.text()]).toEqual([400, "Cannot specify both product_id and product_inline!"]);
  });

  it("sells a non-stackable offer once per customer (PRODUCT_ALREADY_GRANTED), and only with quantity 1", async () => {
    const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ offer_id: "plan" }));
    await expectPageError(await submitCheckout(provider, url, { price_id: "monthly", quantity: "2" }), "", 400);
    await buy(provider, url, { price_id: "yearly" });
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(500);
    const body = await expectKnownError(await createUrl(forUser({ offer_id: "plan" })), "PRODUCT_ALREADY_GRANTED", 400);
    expect(body.details).toEqual({ product_id: "plan", customer_id: user.user_id });
  });

  it("refuses a price the offer does not have", async () => {
    const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ offer_id: "pack" }));
    const response = await submitCheckout(provider, url, { price_id: "lifetime" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Price not found on product associated with this purchase code");
  });

  it("applies the customer rules: existence, and a client only for itself or teams it administers", async () => {
    const other = await signUp(provider);
    const foreign = await createUrl({ customer_type: "user", customer_id: other.user_id, offer_id: "pack" });
    expect([foreign.status, await foreign.text()]).toEqual([
      403,
      "Clients can only create purchase URLs for their own user or teams they have admin access to.",
    ]);
    const missing = "3f0c8a52-7d1e-4c9b-8f2a-1b2c3d4e5f60";
    await expectKnownError(
      await createUrl({ customer_type: "user", customer_id: missing, offer_id: "pack" }, server()),
      "USER_NOT_FOUND",
      404,
    );
    const team = await seedTeam(provider, [user.user_id]);
    await expectKnownError(
      await createUrl({ customer_type: "team", customer_id: team, offer_id: "team-pack" }),
      "TEAM_PERMISSION_REQUIRED",
      401,
    );
    expect(
      (await api(provider, `/team-permissions/${team}/${user.user_id}/team_admin`, { headers: server(), json: {} }))
        .status,
    ).toBe(201);
    await buy(
      provider,
      await purchaseUrl(provider, client({ accessToken: user.access_token }), {
        customer_type: "team",
        customer_id: team,
        offer_id: "team-pack",
      }),
    );
    expect(await quantity(provider, "team", team, "seats")).toBe(5);
  });

  it("sells a free offer to a custom customer from the server", async () => {
    await buy(
      provider,
      await purchaseUrl(provider, server(), { customer_type: "custom", customer_id: "org_1", offer_id: "token-pack" }),
      { quantity: "2" },
    );
    expect(await quantity(provider, "custom", "org_1", "tokens")).toBe(2000);
    const [purchase] = (await transactions(provider)).transactions;
    expect(purchase!.entries.map((e) => e.type)).toEqual(["product_grant", "item_quantity_change"]);
  });

  it("shows the offer as it was when the URL was made, even if the catalogue changes", async () => {
    const url = await purchaseUrl(provider, client({ accessToken: user.access_token }), forUser({ offer_id: "pack" }));
    const config = await expectJson<{ payments: { items: object; offers: Record<string, object> } }>(
      await request(provider, `/__emulator/projects/${DEV.id}/payments-config`),
    );
    const offers = {
      ...config.payments.offers,
      pack: { display_name: "Renamed", customer_type: "user", prices: {}, included_items: {} },
    };
    await expectJson(
      await request(provider, `/__emulator/projects/${DEV.id}/payments-config`, {
        method: "PUT",
        json: { payments: { items: config.payments.items, offers } },
      }),
    );
    expect(await (await request(provider, pathOf(url))).text()).toContain("Credit pack");
    await buy(provider, url);
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(10);
  });
});
