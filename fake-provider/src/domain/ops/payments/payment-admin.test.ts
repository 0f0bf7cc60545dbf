import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listTransactionsResponse } from "@authsim/sdk/contract";
import {
  DEV,
  INTERNAL,
  ORIGIN,
  START_MILLIS,
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  request,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import {
  changeQuantity,
  pathOf,
  purchaseUrl,
  quantity,
  setUpPayments,
  transactions,
  useTestCatalogue,
} from "../../../test-support/payments.ts";

/**
 * The admin payment calls (spec §7 "Admin"; sdk-surface §8): the payment-provider account (setup, account info, the
 * widget session, the emulator's onboarding page), the transaction list and test-mode purchases.
 */

let provider: TestProvider;
beforeEach(async () => {
  provider = newProvider();
  await useTestCatalogue(provider);
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const accountInfo = () => api(provider, "/internal/payments/stripe/account-info", { headers: admin() });

describe("payment-provider account", () => {
  it("has no account until setup: STRIPE_ACCOUNT_INFO_NOT_FOUND (404) and no widget session", async () => {
    const body = await expectKnownError(await accountInfo(), "STRIPE_ACCOUNT_INFO_NOT_FOUND", 404);
    expect(body.details).toBeUndefined();
    const widget = await api(provider, "/internal/payments/stripe-widgets/account-session", {
      method: "POST",
      headers: admin(),
      json: {},
    });
    expect(widget.status).toBe(400);
    expect(await widget.text()).toBe("Stripe account ID is not set");
  });

  it("sets up an account whose onboarding link opens the emulator's page; completing it enables the account and returns to the dashboard's payments page", async () => {
    const { url } = await expectJson<{ url: string }>(
      await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }),
    );
    expect(url).toMatch(new RegExp(`^${ORIGIN}/__emulator/payments/onboarding/acct_[0-9a-z]{16}$`));
    const before = await expectJson<Record<string, unknown>>(await accountInfo());
    expect(before).toEqual({
      account_id: expect.stringMatching(/^acct_/),
      charges_enabled: false,
      details_submitted: false,
      payouts_enabled: false,
    });
    expect(url.endsWith(String(before.account_id))).toBe(true);

    const page = await request(provider, pathOf(url));
    expect(await page.text()).toContain("Complete onboarding");
    const done = await request(provider, pathOf(url), {
      method: "POST",
      body: "",
      contentType: "application/x-www-form-urlencoded",
    });
    // As the payment provider returns to the account link's return_url: the dashboard (8101 beside the API's 8102).
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`http://localhost:8101/projects/${DEV.id}/payments`);
    expect(await (await request(provider, pathOf(url))).text()).toContain("onboarding completed");
    expect(await expectJson(await accountInfo())).toEqual({
      ...before,
      charges_enabled: true,
      details_submitted: true,
      payouts_enabled: true,
    });

    // Setup again reuses the account.
    const again = await expectJson<{ url: string }>(
      await api(provider, "/internal/payments/setup", { method: "POST", headers: admin() }),
    );
    expect(again.url).toBe(url);
    const widget = await expectJson<{ client_secret: string }>(
      await api(provider, "/internal/payments/stripe-widgets/account-session", {
        method: "POST",
        headers: admin(),
        json: {},
      }),
    );
    expect(widget.client_secret).toMatch(new RegExp(`^${String(before.account_id)}_secret_`));
  });

  it("returns to the new-project wizard when setup is started from its payments step", async () => {
    await expectJson(
      await api(provider, "/internal/projects/current", {
        method: "PATCH",
        headers: admin(),
        json: { onboarding_status: "payments_setup" },
      }),
    );
    const { url } = await expectJson<{ url: string }>(
      await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }),
    );
    const done = await request(provider, pathOf(url), {
      method: "POST",
      body: "",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`http://localhost:8101/new-project?project_id=${DEV.id}`);
  });

  it("answers 404 for an onboarding page of no account", async () => {
    const response = await request(provider, "/__emulator/payments/onboarding/acct_nobody");
    expect(response.status).toBe(404);
  });

  it("is admin-only: server access gets INSUFFICIENT_ACCESS_TYPE", async () => {
    for (const [method, path] of [
      ["POST", "/internal/payments/setup"],
      ["GET", "/internal/payments/stripe/account-info"],
      ["POST", "/internal/payments/stripe-widgets/account-session"],
      ["GET", "/internal/payments/transactions"],
    ] as const) {
      const body = await expectKnownError(
        await api(provider, path, { method, headers: server() }),
        "INSUFFICIENT_ACCESS_TYPE",
        401,
      );
      expect(body.details).toEqual({ actual_access_type: "server", allowed_access_types: ["admin"] });
    }
  });
});

describe("GET /internal/payments/transactions", () => {
  async function sixChanges() {
    const user = await signUp(provider);
    for (let i = 1; i <= 3; i++) {
      await expectJson(await changeQuantity(provider, { type: "custom", id: "org_1", item: "tokens" }, { delta: i }));
      provider.clock.advance(1_000);
      await expectJson(
        await changeQuantity(provider, { type: "user", id: user.user_id, item: "credits" }, { delta: 10 * i }),
      );
    }
    return user;
  }

  it("lists newest first and walks pages with limit and next_cursor, each transaction once", async () => {
    await sixChanges();
    const all = listTransactionsResponse.parse(await transactions(provider));
    expect(all.transactions).toHaveLength(6);
    expect(all.next_cursor).toBeNull();
    const times = all.transactions.map((t) => t.created_at_millis);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(all.transactions[0]!.entries[0]).toMatchObject({ type: "item_quantity_change", quantity: 30 });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await transactions(provider, `?limit=4${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.transactions.map((t) => t.id));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 5);
    expect(pages).toBe(2);
    expect(seen).toEqual(all.transactions.map((t) => t.id));
  });

  it("filters by type, customer_type and customer_id", async () => {
    const user = await signUp(provider);
    await expectJson(await changeQuantity(provider, { type: "custom", id: "org_1", item: "tokens" }, { delta: 1 }));
    await expectJson(await changeQuantity(provider, { type: "custom", id: "org_2", item: "tokens" }, { delta: 2 }));
    await setUpPayments(provider);
    const url = await purchaseUrl(provider, server(), {
      customer_type: "user",
      customer_id: user.user_id,
      offer_id: "pack",
    });
    await expectJson(
      await api(provider, "/internal/payments/test-mode-purchase-session", {
        headers: admin(),
        json: { full_code: pathOf(url).split("/").pop(), price_id: "once" },
      }),
    );

    expect(
      (await transactions(provider, "?type=purchase")).transactions.map((t) =>
        t.entries[0]!.type === "product_revocation" ? null : t.entries[0]!.customer_id,
      ),
    ).toEqual([user.user_id]);
    expect((await transactions(provider, "?type=manual-item-quantity-change")).transactions).toHaveLength(2);
    expect(
      (await transactions(provider, "?customer_type=custom")).transactions.map((t) =>
        t.entries[0]!.type === "product_revocation" ? null : t.entries[0]!.customer_id,
      ),
    ).toEqual(["org_2", "org_1"]);
    expect((await transactions(provider, "?customer_type=custom&customer_id=org_1")).transactions).toHaveLength(1);
    expect((await transactions(provider, "?type=refund")).transactions).toEqual([]);
  });

  it("clamps limit to 1..200 like upstream, and rejects a non-number or an unknown type with SCHEMA_ERROR", async () => {
    await sixChanges();
    expect((await transactions(provider, "?limit=0")).transactions).toHaveLength(1);
    expect((await transactions(provider, "?limit=500")).transactions).toHaveLength(6);
    await expectKnownError(
      await api(provider, "/internal/payments/transactions?limit=ten", { headers: admin() }),
      "SCHEMA_ERROR",
      400,
    );
    await expectKnownError(
      await api(provider, "/internal/payments/transactions?type=gift", { headers: admin() }),
      "SCHEMA_ERROR",
      400,
    );
  });

  it("starts from the top for a cursor that names no transaction (upstream's reading)", async () => {
    await sixChanges();
    expect((await transactions(provider, "?cursor=unknown")).transactions).toHaveLength(6);
  });
});

describe("POST /internal/payments/test-mode-purchase-session", () => {
  async function codeFor(customerId: string, offerId = "pack") {
    await setUpPayments(provider);
    const url = await purchaseUrl(provider, server(), {
      customer_type: "user",
      customer_id: customerId,
      offer_id: offerId,
    });
    return pathOf(url).split("/").pop()!;
  }

  it("completes a purchase code without payment: items granted, a test-mode purchase without a money transfer", async () => {
    const user = await signUp(provider);
    const fullCode = await codeFor(user.user_id);
    const response = await api(provider, "/internal/payments/test-mode-purchase-session", {
      headers: admin(),
      json: { full_code: fullCode, price_id: "once", quantity: 2 },
    });
    expect(await expectJson(response)).toEqual({ success: true });
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(20);
    const [purchase] = (await transactions(provider)).transactions;
    expect(purchase).toMatchObject({ type: "purchase", test_mode: true, created_at_millis: START_MILLIS });
    expect(purchase!.entries.map((e) => e.type)).toEqual(["product_grant", "item_quantity_change"]);
    // The code is used up.
    const again = await api(provider, "/internal/payments/test-mode-purchase-session", {
      headers: admin(),
      json: { full_code: fullCode, price_id: "once" },
    });
    await expectKnownError(again, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses unknown codes, prices the offer lacks and codes of another project", async () => {
    const user = await signUp(provider);
    await expectKnownError(
      await api(provider, "/internal/payments/test-mode-purchase-session", {
        headers: admin(),
        json: { full_code: "x_y", price_id: "once" },
      }),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
    const fullCode = await codeFor(user.user_id);
    const badPrice = await api(provider, "/internal/payments/test-mode-purchase-session", {
      headers: admin(),
      json: { full_code: fullCode, price_id: "lifetime" },
    });
    expect(badPrice.status).toBe(400);
    expect(await badPrice.text()).toBe("Price not found on product associated with this purchase code");
    const otherProject = await api(provider, "/internal/payments/test-mode-purchase-session", {
      headers: admin({}, INTERNAL),
      json: { full_code: fullCode, price_id: "once" },
    });
    expect(otherProject.status).toBe(400);
    expect(await otherProject.text()).toBe("Tenancy id does not match value from code data");
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(0);
  });
});
