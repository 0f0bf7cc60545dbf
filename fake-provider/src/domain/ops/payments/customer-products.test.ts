import { beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  client,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { quantity } from "../../../test-support/payments.ts";

/** A customer's billing and products (what the published kits' account settings read), and the server's grant. */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const asUser = () => client({ accessToken: user.access_token });
const configure = (override: unknown) =>
  api(provider, "/internal/config/override/environment", {
    method: "PATCH",
    headers: admin(),
    json: { config_override_string: JSON.stringify(override) },
  });

describe("GET /payments/invoices/{type}/{id}", () => {
  it("lists no invoices for a customer the provider never billed, paginated like upstream", async () => {
    expect(
      await expectJson(await api(provider, `/payments/invoices/user/${user.user_id}`, { headers: asUser() })),
    ).toEqual({ items: [], is_paginated: true, pagination: { next_cursor: null } });
    const bad = await api(provider, `/payments/invoices/user/${user.user_id}?cursor=in_nothing`, { headers: asUser() });
    expect([bad.status, await bad.text()]).toEqual([400, "Invalid cursor"]);
  });

  it("lets a client read its own invoices only, and a team's only as its team_admin", async () => {
    const other = await signUp(provider);
    const response = await api(provider, `/payments/invoices/user/${other.user_id}`, { headers: asUser() });
    expect([response.status, await response.text()]).toEqual([403, "Clients can only manage their own billing."]);
    const team = await expectJson<{ id: string }>(
      await api(provider, "/teams", { headers: server(), json: { display_name: "T", creator_user_id: other.user_id } }),
      201,
    );
    await expectJson(
      await api(provider, `/team-memberships/${team.id}/${user.user_id}`, { headers: server(), json: {} }),
      201,
    );
    await expectKnownError(
      await api(provider, `/payments/invoices/team/${team.id}`, { headers: asUser() }),
      "TEAM_PERMISSION_REQUIRED",
      401,
    );
  });
});

describe("/payments/products/{type}/{id}", () => {
  beforeEach(async () => {
    await expectJson(
      await configure({
        "payments.items.gems": { displayName: "Gems", customerType: "user" },
        "payments.productLines.plans": { displayName: "Plans", customerType: "user" },
        "payments.products.basic": {
          customerType: "user",
          productLineId: "plans",
          prices: { monthly: { USD: "5", interval: [1, "month"] } },
          includedItems: { gems: { quantity: 3 } },
        },
        "payments.products.pro": {
          displayName: "Pro",
          customerType: "user",
          productLineId: "plans",
          prices: { monthly: { USD: "20", interval: [1, "month"] } },
          includedItems: {},
        },
      }),
    );
  });

  it("lists nothing for a new customer (the account-settings page's first read)", async () => {
    const list = await expectJson(
      await api(provider, `/payments/products/user/${user.user_id}?limit=1`, { headers: asUser() }),
    );
    expect(list).toEqual({ items: [], is_paginated: true, pagination: { next_cursor: null } });
  });

  it("a server grant adds the product and its items; the list shows it with the plans it can switch to", async () => {
    expect(
      await expectJson(
        await api(provider, `/payments/products/user/${user.user_id}`, {
          headers: server(),
          json: { product_id: "basic" },
        }),
      ),
    ).toMatchObject({ success: true });
    expect(await quantity(provider, "user", user.user_id, "gems")).toBe(3);
    const list = await expectJson<{
      items: {
        id: string;
        quantity: number;
        product: { display_name: string };
        switch_options?: { product_id: string }[];
      }[];
    }>(await api(provider, `/payments/products/user/${user.user_id}`, { headers: asUser() }));
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      id: "basic",
      quantity: 1,
      product: { display_name: "basic" },
      type: "subscription",
    });
    expect(list.items[0]!.switch_options!.map((o) => o.product_id)).toEqual(["pro"]);
  });

  it("a grant of another plan of the line ends the old one at once, with the items it granted", async () => {
    await expectJson(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: server(),
        json: { product_id: "basic" },
      }),
    );
    expect(await quantity(provider, "user", user.user_id, "gems")).toBe(3);
    await expectJson(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: server(),
        json: { product_id: "pro" },
      }),
    );
    expect(await quantity(provider, "user", user.user_id, "gems")).toBe(0);
    const list = await expectJson<{ items: { id: string }[] }>(
      await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
    );
    expect(list.items.map((i) => i.id)).toEqual(["pro"]);
  });

  it("refuses a grant of an unknown product, a product of another customer type, and a client grant", async () => {
    await expectKnownError(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: server(),
        json: { product_id: "nope" },
      }),
      "PRODUCT_DOES_NOT_EXIST",
      400,
    );
    await expectJson(
      await configure({ "payments.products.team-only": { customerType: "team", prices: {}, includedItems: {} } }),
    );
    await expectKnownError(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: server(),
        json: { product_id: "team-only" },
      }),
      "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
      400,
    );
    await expectKnownError(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: asUser(),
        json: { product_id: "basic" },
      }),
      "INSUFFICIENT_ACCESS_TYPE",
      401,
    );
  });

  it("pages by product id and refuses an unknown cursor", async () => {
    // Two products of different lines (a plan of the same line would replace the first).
    await expectJson(
      await configure({
        "payments.products.zeta": { customerType: "user", prices: { once: { USD: "1" } }, includedItems: {} },
      }),
    );
    for (const id of ["basic", "zeta"])
      await expectJson(
        await api(provider, `/payments/products/user/${user.user_id}`, { headers: server(), json: { product_id: id } }),
      );
    const first = await expectJson<{ items: { id: string }[]; pagination: { next_cursor: string | null } }>(
      await api(provider, `/payments/products/user/${user.user_id}?limit=1`, { headers: server() }),
    );
    expect([first.items.map((i) => i.id), first.pagination.next_cursor]).toEqual([["basic"], "zeta"]);
    const bad = await api(provider, `/payments/products/user/${user.user_id}?cursor=zzz`, { headers: server() });
    expect([bad.status, await bad.text()]).toEqual([400, "Invalid cursor"]);
  });
});

describe("/internal/payments/method-configs", () => {
  const get = () => api(provider, "/internal/payments/method-configs", { headers: admin() });
  it("needs a payments account, then lists the methods and takes on/off updates", async () => {
    await expectKnownError(await get(), "STRIPE_ACCOUNT_INFO_NOT_FOUND", 404);
    await expectJson(await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }));
    const before = await expectJson<{ config_id: string; methods: { id: string; enabled: boolean }[] }>(await get());
    expect(before.methods.find((m) => m.id === "link")?.enabled).toBe(true);
    await expectJson(
      await api(provider, "/internal/payments/method-configs", {
        method: "PATCH",
        headers: admin(),
        json: { config_id: before.config_id, updates: { link: "off" } },
      }),
    );
    const after = await expectJson<{ methods: { id: string; enabled: boolean }[] }>(await get());
    expect(after.methods.find((m) => m.id === "link")?.enabled).toBe(false);
    await expectKnownError(
      await api(provider, "/internal/payments/method-configs", {
        method: "PATCH",
        headers: admin(),
        json: { config_id: before.config_id, updates: { telepathy: "on" } },
      }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("refuses an unknown method or preference on `updates` itself, listing what it takes", async () => {
    const patch = (updates: unknown) =>
      api(provider, "/internal/payments/method-configs", {
        method: "PATCH",
        headers: admin(),
        json: { config_id: "pmc_any", updates },
      });
    const unknownMethod = await expectKnownError(await patch({ card: "on", telepathy: "on" }), "SCHEMA_ERROR", 400);
    const lines = String((unknownMethod.details as { message: string }).message).split("\n");
    expect(lines[1]).toMatch(
      /^ {2}- body\.updates must be one of the following values: card, cartes_bancaires, apple_pay, .*, customer_balance$/,
    );
    const badValue = await expectKnownError(await patch({ card: "enabled" }), "SCHEMA_ERROR", 400);
    expect(String((badValue.details as { message: string }).message).split("\n")[1]).toBe(
      "  - body.updates must be one of the following values: on, off",
    );
  });
});

describe("subscriptions", () => {
  beforeEach(async () => {
    await expectJson(
      await configure({
        "payments.productLines.plans": { customerType: "user" },
        "payments.products.basic": {
          customerType: "user",
          productLineId: "plans",
          prices: { monthly: { USD: "5", interval: [1, "month"] } },
          includedItems: {},
        },
        "payments.products.pro": {
          customerType: "user",
          productLineId: "plans",
          prices: { monthly: { USD: "20", interval: [1, "month"] } },
          includedItems: {},
        },
        "payments.products.lifetime": { customerType: "user", prices: { once: { USD: "99" } }, includedItems: {} },
      }),
    );
  });
  const grant = (product_id: string) =>
    api(provider, `/payments/products/user/${user.user_id}`, { headers: server(), json: { product_id } });
  const list = async () =>
    (
      await expectJson<{ items: { id: string; type: string; subscription: { subscription_id: string } | null }[] }>(
        await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
      )
    ).items;

  it("a recurring price makes the grant a subscription, which the customer can cancel (held until the period ends)", async () => {
    const granted = await expectJson<{ subscription_id?: string }>(await grant("basic"));
    expect(granted.subscription_id).toEqual(expect.any(String));
    expect((await list())[0]).toMatchObject({
      id: "basic",
      type: "subscription",
      subscription: { subscription_id: granted.subscription_id },
    });
    expect(
      await expectJson(
        await api(provider, `/payments/products/user/${user.user_id}/basic`, { method: "DELETE", headers: asUser() }),
      ),
    ).toEqual({ success: true });
    expect((await list())[0]).toMatchObject({ id: "basic", type: "one_time", subscription: null });
    provider.clock.advance(32 * 86_400_000);
    expect(await list()).toEqual([]);
  });

  it("a grant in the same product line replaces the active subscription; a one-time product cannot be cancelled", async () => {
    await expectJson(await grant("basic"));
    await expectJson(await grant("pro"));
    expect((await list()).filter((p) => p.type === "subscription").map((p) => p.id)).toEqual(["pro"]);
    await expectJson(await grant("lifetime"));
    const once = await api(provider, `/payments/products/user/${user.user_id}/lifetime`, {
      method: "DELETE",
      headers: server(),
    });
    expect([once.status, await once.text()]).toEqual([
      400,
      "This product is a one time purchase and cannot be canceled.",
    ]);
    await expectKnownError(await grant("lifetime"), "PRODUCT_ALREADY_GRANTED", 400);
    const other = await signUp(provider);
    const foreign = await api(provider, `/payments/products/user/${other.user_id}/basic`, {
      method: "DELETE",
      headers: asUser(),
    });
    expect([foreign.status, await foreign.text()]).toEqual([403, "Clients can only cancel their own subscriptions."]);
  });

  it("a grant to a user that does not exist is USER_NOT_FOUND", async () => {
    await expectKnownError(
      await api(provider, "/payments/products/user/3f0c8a52-7d1e-4c9b-8f2a-1b2c3d4e5f60", {
        headers: server(),
        json: { product_id: "basic" },
      }),
      "USER_NOT_FOUND",
      404,
    );
  });
});
