import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  client,
  expectJson,
  newProvider,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { buy, purchaseUrl } from "../../../test-support/payments.ts";

/** Plan switches (upstream's POST /payments/products/{type}/{id}/switch): its checks, and a paid plan moved to another. */

let provider: TestProvider;
let user: SignedUp;
const plan = (displayName: string, USD: string, extra: Record<string, unknown> = {}) => ({
  displayName,
  customerType: "user",
  productLineId: "plans",
  prices: { monthly: { USD, interval: [1, "month"] } },
  includedItems: {},
  ...extra,
});
beforeEach(async () => {
  provider = newProvider();
  user = await signUp(provider);
  const response = await api(provider, "/internal/config/override/environment", {
    method: "PATCH",
    headers: admin(),
    json: {
      config_override_string: JSON.stringify({
        "payments.testMode": false,
        "payments.productLines": { plans: { displayName: "Plans" }, other: { displayName: "Other" } },
        "payments.products": {
          basic: plan("Basic", "10"),
          pro: plan("Pro", "20"),
          free: {
            displayName: "Free",
            customerType: "user",
            productLineId: "plans",
            prices: "include-by-default",
            includedItems: {},
          },
          elsewhere: plan("Elsewhere", "5", { productLineId: "other" }),
          once: {
            displayName: "Once",
            customerType: "user",
            productLineId: "plans",
            prices: { one: { USD: "5" } },
            includedItems: {},
          },
        },
      }),
    },
  });
  await expectJson(response);
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const switchPlan = (body: Record<string, unknown>, headers = client({ accessToken: user.access_token })) =>
  api(provider, `/payments/products/user/${user.user_id}/switch`, { headers, json: body });
const plain = async (response: Response) => [response.status, await response.text()];
const held = async () =>
  (
    await expectJson<{ items: { id: string | null }[] }>(
      await api(provider, `/payments/products/user/${user.user_id}`, { headers: server() }),
    )
  ).items.map((p) => p.id);

describe("POST /payments/products/{type}/{id}/switch", () => {
  it("refuses other product lines, include-by-default targets and unpaid subscriptions with upstream's words", async () => {
    expect(await plain(await switchPlan({ from_product_id: "basic", to_product_id: "elsewhere" }))).toEqual([
      400,
      "Products must be in the same product line to switch.",
    ]);
    expect(await plain(await switchPlan({ from_product_id: "basic", to_product_id: "free" }))).toEqual([
      400,
      "Include-by-default products cannot be selected for plan switching.",
    ]);
    expect(await plain(await switchPlan({ from_product_id: "basic", to_product_id: "nope" }))).toEqual([
      400,
      "Product not found.",
    ]);
    await expectJson(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: server(),
        json: { product_id: "basic" },
      }),
    );
    expect(await plain(await switchPlan({ from_product_id: "basic", to_product_id: "pro" }))).toEqual([
      400,
      "This subscription cannot be switched.",
    ]);
  });

  it("refuses while a one-time purchase of the line is held", async () => {
    await expectJson(
      await api(provider, `/payments/products/user/${user.user_id}`, {
        headers: server(),
        json: { product_id: "once" },
      }),
    );
    expect(await plain(await switchPlan({ from_product_id: "once", to_product_id: "pro" }))).toEqual([
      400,
      "This subscription cannot be switched.",
    ]);
    expect(await plain(await switchPlan({ from_product_id: "basic", to_product_id: "pro" }))).toEqual([
      400,
      "Customer already has a one-time purchase in this product line",
    ]);
  });

  it("moves a paid subscription to the other plan, with the card on file", async () => {
    // Buying needs the project's payments account, which also holds the card on file.
    await expectJson(await api(provider, "/internal/payments/setup", { headers: admin(), json: {} }));
    await buy(
      provider,
      await purchaseUrl(provider, server(), { customer_type: "user", customer_id: user.user_id, product_id: "basic" }),
    );
    expect(await expectJson(await switchPlan({ from_product_id: "basic", to_product_id: "pro" }))).toEqual({
      success: true,
    });
    expect(await held()).toContain("pro");
    const other = await signUp(provider, { email: "other@example.com" });
    const forbidden = await switchPlan(
      { from_product_id: "pro", to_product_id: "basic" },
      client({ accessToken: other.access_token }),
    );
    expect(await plain(forbidden)).toEqual([403, "Clients can only manage their own subscriptions."]);
  });
});
