import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  admin,
  api,
  expectJson,
  expectKnownError,
  newProvider,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { pathOf, purchaseUrl, quantity, setUpPayments, useTestCatalogue } from "../../../test-support/payments.ts";

/** The checkout page's calls (validate-code, purchase-session), blockNewPurchases and test mode. */

let provider: TestProvider;
let user: SignedUp;
beforeEach(async () => {
  provider = newProvider();
  await useTestCatalogue(provider);
  await setUpPayments(provider);
  user = await signUp(provider);
});
afterEach(() => expect(provider.unexpected).toEqual([]));

const codeOf = (url: string) => decodeURIComponent(pathOf(url).split("/").at(-1)!);
const newCode = async (productId = "plan") =>
  codeOf(
    await purchaseUrl(provider, server(), { customer_type: "user", customer_id: user.user_id, product_id: productId }),
  );
const configure = (override: unknown) =>
  api(provider, "/internal/config/override/environment", {
    method: "PATCH",
    headers: admin(),
    json: { config_override_string: JSON.stringify(override) },
  });

describe("purchase codes", () => {
  it("are lower case, and validate-code tells what they buy", async () => {
    const code = await newCode();
    expect(code).toMatch(/^[a-z0-9-_]+$/);
    const details = await expectJson(
      await api(provider, "/payments/purchases/validate-code", { json: { full_code: code } }),
    );
    expect(details).toMatchObject({
      product: { display_name: "Plan", customer_type: "user" },
      already_bought_non_stackable: false,
      conflicting_products: [],
      test_mode: true,
      charges_enabled: false,
    });
    expect(await expectJson(await api(provider, `/payments/purchases/validate-code?full_code=${code}`))).toEqual({
      valid: true,
    });
    await expectKnownError(
      await api(provider, "/payments/purchases/validate-code", { json: { full_code: "nope_nope" } }),
      "VERIFICATION_CODE_NOT_FOUND",
      404,
    );
  });

  it("a purchase session completes the purchase with the emulated provider", async () => {
    const code = await newCode();
    const session = await expectJson<{ client_secret: string }>(
      await api(provider, "/payments/purchases/purchase-session", { json: { full_code: code, price_id: "monthly" } }),
    );
    // A subscription's first invoice carries no secret to confirm (as the real service's test provider answers).
    expect(session.client_secret).toBe("");
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(500);
    const oneTime = await expectJson<{ client_secret: string }>(
      await api(provider, "/payments/purchases/purchase-session", {
        json: { full_code: await newCode("pack"), price_id: "once" },
      }),
    );
    expect(oneTime.client_secret).toMatch(/^pi_[0-9a-z]+_secret_[0-9a-z]+$/);
    expect(await quantity(provider, "user", user.user_id, "credits")).toBe(510);
    const again = await api(provider, "/payments/purchases/purchase-session", {
      json: { full_code: code, price_id: "monthly" },
    });
    await expectKnownError(again, "VERIFICATION_CODE_ALREADY_USED", 409);
  });

  it("refuses an unknown price and a quantity above 1 of a non-stackable product", async () => {
    const code = await newCode();
    const badPrice = await api(provider, "/payments/purchases/purchase-session", {
      json: { full_code: code, price_id: "weekly" },
    });
    expect([badPrice.status, await badPrice.text()]).toEqual([
      400,
      "Price not found on product associated with this purchase code",
    ]);
    const many = await api(provider, "/payments/purchases/purchase-session", {
      json: { full_code: code, price_id: "monthly", quantity: 2 },
    });
    expect([many.status, await many.text()]).toEqual([400, "This product is not stackable; quantity must be 1"]);
  });

  it("blockNewPurchases stops purchase URLs, purchase sessions and test-mode purchases", async () => {
    const code = await newCode();
    await expectJson(await configure({ "payments.blockNewPurchases": true }));
    await expectKnownError(
      await api(provider, "/payments/purchases/create-purchase-url", {
        headers: server(),
        json: { customer_type: "user", customer_id: user.user_id, product_id: "plan" },
      }),
      "NEW_PURCHASES_BLOCKED",
      403,
    );
    await expectKnownError(
      await api(provider, "/payments/purchases/purchase-session", { json: { full_code: code, price_id: "monthly" } }),
      "NEW_PURCHASES_BLOCKED",
      403,
    );
    await expectKnownError(
      await api(provider, "/internal/payments/test-mode-purchase-session", {
        headers: admin(),
        json: { full_code: code, price_id: "monthly" },
      }),
      "NEW_PURCHASES_BLOCKED",
      403,
    );
  });

  it("test-mode purchases need the project's payments in test mode", async () => {
    const code = await newCode();
    await expectJson(await configure({ "payments.testMode": false }));
    const response = await api(provider, "/internal/payments/test-mode-purchase-session", {
      headers: admin(),
      json: { full_code: code, price_id: "monthly" },
    });
    expect([response.status, await response.text()]).toEqual([403, "Test mode is not enabled for this project"]);
  });
});
