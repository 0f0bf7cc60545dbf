import { describe, expect, it } from "vitest";
import { controlClient } from "@authsim/sdk/emulator";
import {
  admin,
  api,
  client,
  eachTestSignedUp,
  expectJson,
  expectKnownError,
  ORIGIN,
  server,
  signUp,
  type SignedUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import { TEST_CARD } from "./payment-methods.ts";

/** A customer's payment method over HTTP: billing, setup intents, the emulator's confirmation, set-default. */

let provider: TestProvider;
let user: SignedUp;
eachTestSignedUp((p, u) => ((provider = p), (user = u)));

const asUser = () => client({ accessToken: user.access_token });
const setUpPayments = async () =>
  expectJson(await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }));

describe("GET /payments/billing/{type}/{id}", () => {
  it("has no customer until payments are set up, then the provider's test card", async () => {
    expect(
      await expectJson(await api(provider, `/payments/billing/user/${user.user_id}`, { headers: asUser() })),
    ).toEqual({ has_customer: false, default_payment_method: null });
    await expectJson(await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }));
    expect(
      await expectJson(await api(provider, `/payments/billing/user/${user.user_id}`, { headers: asUser() })),
    ).toEqual({ has_customer: true, default_payment_method: TEST_CARD });
  });

  it("refuses a client another user's billing with a plain 403", async () => {
    const other = await signUp(provider);
    const response = await api(provider, `/payments/billing/user/${other.user_id}`, { headers: asUser() });
    expect([response.status, await response.text()]).toEqual([403, "Clients can only manage their own billing."]);
  });
});

describe("POST /payments/payment-method/{type}/{id}/setup-intent", () => {
  const setupIntent = (customerId: string, headers = asUser()) =>
    api(provider, `/payments/payment-method/user/${customerId}/setup-intent`, { method: "POST", headers, json: {} });

  it("needs payments set up (plain 400), then answers a secret and the project's account", async () => {
    const before = await setupIntent(user.user_id);
    expect(before.status).toBe(400);
    expect(await before.text()).toMatch(/^Payments are not set up in this Stack Auth project\./);
    await expectJson(await api(provider, "/internal/payments/setup", { method: "POST", headers: admin(), json: {} }));
    const account = await expectJson<{ account_id: string }>(
      await api(provider, "/internal/payments/stripe/account-info", { headers: admin() }),
    );
    const intent = await expectJson<{ client_secret: string; stripe_account_id: string }>(
      await setupIntent(user.user_id),
    );
    expect(intent).toEqual({
      client_secret: expect.stringMatching(/^seti_[0-9a-z]+_secret_[0-9a-z]+$/),
      stripe_account_id: account.account_id,
    });
  });

  it("refuses a client another user's payment method with its own plain 403", async () => {
    const other = await signUp(provider);
    const response = await setupIntent(other.user_id);
    expect([response.status, await response.text()]).toEqual([
      403,
      "Clients can only manage their own payment method.",
    ]);
  });
});

describe("POST /payments/payment-method/{type}/{id}/set-default", () => {
  const setDefault = (customerId: string, body: unknown, headers = asUser()) =>
    api(provider, `/payments/payment-method/user/${customerId}/set-default`, { method: "POST", headers, json: body });
  const newIntent = async () =>
    (
      await expectJson<{ client_secret: string }>(
        await api(provider, `/payments/payment-method/user/${user.user_id}/setup-intent`, {
          method: "POST",
          headers: asUser(),
          json: {},
        }),
      )
    ).client_secret;

  it("makes the card the browser confirmed the default, as billing then reports it", async () => {
    await setUpPayments();
    const control = controlClient({ baseUrl: ORIGIN, fetch: provider.fetch });
    const intent = await control.call("confirmSetupIntent", {
      body: { client_secret: await newIntent(), card: { number: "6011111111111117", exp_month: 1, exp_year: 2032 } },
    });
    const card = { id: expect.stringMatching(/^pm_/), brand: "discover", last4: "1117", exp_month: 1, exp_year: 2032 };
    expect(intent).toEqual({
      id: expect.stringMatching(/^seti_/),
      status: "succeeded",
      customer_type: "user",
      customer_id: user.user_id,
      payment_method: card,
    });
    expect(await expectJson(await setDefault(user.user_id, { setup_intent_id: intent.id }))).toEqual({
      success: true,
      default_payment_method: intent.payment_method,
    });
    expect(
      await expectJson(await api(provider, `/payments/billing/user/${user.user_id}`, { headers: asUser() })),
    ).toEqual({ has_customer: true, default_payment_method: intent.payment_method });
  });

  it("answers upstream's plain-text refusals, the schema's for a body without the intent, and the emulator's confirmation refusals as JSON", async () => {
    await setUpPayments();
    const secret = await newIntent();
    const id = secret.slice(0, secret.indexOf("_secret_"));
    const unconfirmed = await setDefault(user.user_id, { setup_intent_id: id });
    expect([unconfirmed.status, await unconfirmed.text()]).toEqual([400, "Setup intent has not succeeded."]);
    const other = await signUp(provider);
    const foreign = await setDefault(
      user.user_id,
      { setup_intent_id: id },
      client({ accessToken: other.access_token }),
    );
    expect([foreign.status, await foreign.text()]).toEqual([403, "Clients can only manage their own payment method."]);
    const notTheirs = await setDefault(other.user_id, { setup_intent_id: id }, server());
    expect([notTheirs.status, await notTheirs.text()]).toEqual([403, "Setup intent does not belong to this customer."]);
    const missing = await setDefault(user.user_id, { setup_intent_id: "seti_missing" });
    expect([missing.status, await missing.text()]).toEqual([404, "No such setupintent: 'seti_missing'"]);
    await expectKnownError(await setDefault(user.user_id, {}), "SCHEMA_ERROR", 400);

    const declined = await controlClient({ baseUrl: ORIGIN, fetch: provider.fetch }).send("confirmSetupIntent", {
      body: { client_secret: secret, card: { number: "4000000000000002" } },
    });
    expect([declined.status, await declined.json()]).toEqual([402, { error: "Your card was declined." }]);
  });
});
