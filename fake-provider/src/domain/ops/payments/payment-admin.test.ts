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

  it("filters by type and customer_type; cancellation, chargeback and product-change filters list nothing", async () => {
    const user = await signUp(provider);
    await expectJson(await changeQuantity(provider, { type: "custom", id: "org_1", item: "tokens" }, { delta: 1 }));
    provider.clock.advance(1);
    await expectJson(await changeQuantity(provider, { type: "custom", id: "org_2", item: "tokens" }, { delta: 2 }));
    provider.clock.advance(1);
    await setUpPayments(provider);
    const url = await purchaseUrl(provider, server(), {
      customer_type: "user",
      customer_id: user.user_id,
      offer_id: "plan",
    });
    await expectJson(
      await api(provider, "/internal/payments/test-mode-purchase-session", {
        headers: admin(),
        json: { full_code: pathOf(url).split("/").pop(), price_id: "monthly" },
      }),
    );
    const [subscription] = (await transactions(provider, "?type=purchase")).transactions;
    // A subscription's purchase is listed under the subscription's id (what a refund of it names).
    const grant = subscription!.entries[0]!;
    expect(grant).toMatchObject({ type: "product_grant", customer_id: user.user_id });
    expect(grant.type === "product_grant" && grant.subscription_id).toBe(subscription!.id);
    provider.clock.advance(1);
    await expectJson(
      await api(provider, `/payments/products/user/${user.user_id}/plan`, { method: "DELETE", headers: server() }),
    );

    // The cancellation is recorded but not listed, by default or by its filter.
    expect((await transactions(provider)).transactions.map((t) => t.type)).toEqual([
      "purchase",
      "manual-item-quantity-change",
      "manual-item-quantity-change",
    ]);
    expect((await transactions(provider, "?type=manual-item-quantity-change")).transactions).toHaveLength(2);
    expect(
      (await transactions(provider, "?customer_type=custom")).transactions.map((t) =>
        t.entries[0]!.type === "product_revocation" ? null : t.entries[0]!.customer_id,
      ),
    ).toEqual(["org_2", "org_1"]);
    for (const type of ["subscription-cancellation", "chargeback", "product-change"])
      // Even a malformed cursor is not read for these: upstream answers before looking at it.
      expect(await transactions(provider, `?type=${type}&cursor=bad`)).toEqual({ transactions: [], next_cursor: null });
  });

  it("refuses type=refund and a customer_id as its query schema does (SCHEMA_ERROR)", async () => {
    for (const query of ["?type=refund", "?type=gift", "?customer_id=org_1"]) {
      await expectKnownError(
        await api(provider, `/internal/payments/transactions${query}`, { headers: admin() }),
        "SCHEMA_ERROR",
        400,
      );
    }
  });

  it("reads limit with parseInt as upstream: a leading integer clamped to 1..200, else 50, never refused", async () => {
    await sixChanges();
    const cases: [string, number][] = [
      ["0", 1],
      ["-3", 1],
      ["2abc", 2],
      ["500", 6],
      ["ten", 6],
      ["", 6],
      ["4.9", 4],
    ];
    for (const [limit, rows] of cases)
      expect((await transactions(provider, `?limit=${limit}`)).transactions, limit).toHaveLength(rows);
  });

  it("gives a base64url JSON cursor of the last row's creation time and ledger id; ties in a millisecond go by that id", async () => {
    // Three changes in one millisecond: upstream orders them by ledger id (`miqc:` + id), descending.
    for (const delta of [1, 2, 3])
      await expectJson(await changeQuantity(provider, { type: "custom", id: "org_1", item: "tokens" }, { delta }));
    const all = (await transactions(provider)).transactions;
    expect(all.map((t) => t.id)).toEqual(
      all
        .map((t) => t.id)
        .sort()
        .reverse(),
    );
    const first = await transactions(provider, "?limit=1");
    expect(JSON.parse(Buffer.from(first.next_cursor!, "base64url").toString("utf8"))).toEqual({
      createdAtMillis: START_MILLIS,
      txnId: `miqc:${all[0]!.id}`,
    });
    const rest = await transactions(provider, `?cursor=${first.next_cursor}`);
    expect(rest.transactions.map((t) => t.id)).toEqual(all.slice(1).map((t) => t.id));
    expect(rest.next_cursor).toBeNull();
    // A cursor is a position: one after everything lists everything; an empty cursor is none.
    const future = Buffer.from(JSON.stringify({ createdAtMillis: START_MILLIS + 1, txnId: "a" })).toString("base64url");
    expect((await transactions(provider, `?cursor=${future}`)).transactions).toHaveLength(3);
    expect((await transactions(provider, "?cursor=")).transactions).toHaveLength(3);
  });

  it("answers a plain 400 Invalid cursor for a cursor that is not base64url JSON of a position", async () => {
    const encode = (value: string) => Buffer.from(value).toString("base64url");
    for (const cursor of [
      "unknown",
      encode("null"),
      encode("[1]"),
      encode(JSON.stringify({ createdAtMillis: -1, txnId: "x" })),
      encode(JSON.stringify({ createdAtMillis: 1.5, txnId: "x" })),
      encode(JSON.stringify({ createdAtMillis: 1, txnId: "" })),
    ]) {
      const response = await api(provider, `/internal/payments/transactions?cursor=${cursor}`, { headers: admin() });
      expect(response.status, cursor).toBe(400);
      expect(await response.text()).toBe("Invalid cursor");
    }
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
