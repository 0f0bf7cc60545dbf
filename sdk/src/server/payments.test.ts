import { describe, expect, it } from "vitest";
import { StackAdminApp } from "../admin/admin-app.ts";
import { StackClientApp } from "../client/client-app.ts";
import { isKnownErrorOfType } from "../errors/known-error.ts";
import { manualClock } from "../runtime/clock.ts";
import { seededRandom } from "../runtime/ids.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import {
  fakeFetch,
  json,
  knownError,
  recordingSleep,
  type RecordedCall,
  type Responder,
} from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, unsignedToken } from "../test-support/tokens.ts";
import { StackServerApp } from "./server-app.ts";

/** The SDK's payment and vault calls on the wire (spec §5, §7, §8; sdk-surface.md §7, §8, §15, §16). */

const T0 = 1_750_000_000_000;
const common = {
  projectId: "internal",
  baseUrl: "http://api.test",
  clock: manualClock(T0),
  sleep: recordingSleep().sleep,
  random: seededRandom("payments-sdk"),
};

function server(responder: Responder) {
  const ff = fakeFetch(responder);
  return { app: new StackServerApp({ ...common, secretServerKey: "ssk", fetch: ff.fetch }), calls: ff.calls };
}
function admin(responder: Responder) {
  const ff = fakeFetch(responder);
  return { app: new StackAdminApp({ ...common, superSecretAdminKey: "sak", fetch: ff.fetch }), calls: ff.calls };
}

const bodyOf = (call: RecordedCall): unknown => JSON.parse(call.body ?? "null");
const queryOf = (call: RecordedCall) => Object.fromEntries(new URL(call.url).searchParams);
const item = (quantity: number) => json({ id: "credits", display_name: "Credits", quantity });

describe("getItem", () => {
  it("needs exactly one of userId, teamId or customCustomerId, and says so", async () => {
    const { app, calls } = server(() => item(1));
    await expect(app.getItem({ itemId: "credits" } as never)).rejects.toThrow(
      "getItem needs exactly one of userId, teamId or customCustomerId, but got none.",
    );
    await expect(app.getItem({ itemId: "credits", userId: "u", teamId: "t" } as never)).rejects.toThrow(
      "but got userId and teamId.",
    );
    await expect(
      app.updateItemQuantity({ itemId: "credits", customCustomerId: "c", teamId: "t", delta: 1 } as never),
    ).rejects.toThrow(/^updateItemQuantity needs exactly one/);
    expect(calls).toHaveLength(0);
  });

  it("reads a client user's item with its session; nonNegativeQuantity floors at zero", async () => {
    const ff = fakeFetch(router({ [`GET /payments/items/user/${TEST_USER_ID}/credits`]: () => item(-4) }));
    const store = memoryTokenStore();
    const accessToken = unsignedToken(claims(T0, 600_000));
    store.set({ accessToken, refreshToken: "rt" });
    const app = new StackClientApp({ ...common, tokenStore: store, fetch: ff.fetch });
    expect(await app.getItem({ itemId: "credits", userId: TEST_USER_ID })).toEqual({
      displayName: "Credits",
      quantity: -4,
      nonNegativeQuantity: 0,
    });
    expect(ff.calls[0]!.headers).toMatchObject({
      "x-stack-access-type": "client",
      "x-stack-access-token": accessToken,
    });
  });

  it("addresses team and custom customers by type, escaping ids", async () => {
    const { app, calls } = server(() => item(7));
    const team = await app.getItem({ itemId: "seats", teamId: "team-1" });
    await app.getItem({ itemId: "tokens", customCustomerId: "org/42" });
    expect(team.quantity).toBe(7);
    expect(calls.map((c) => new URL(c.url).pathname)).toEqual([
      "/api/v1/payments/items/team/team-1/seats",
      "/api/v1/payments/items/custom/org%2F42/tokens",
    ]);
    expect(calls[0]!.headers["x-stack-access-type"]).toBe("server");
  });
});

describe("ServerItem quantity calls", () => {
  it("increases and decreases with allow_negative=true, tries a decrease with allow_negative=false", async () => {
    const { app, calls } = server(
      router({
        "GET /payments/items/custom/c1/tokens": () => item(2),
        "POST /payments/items/custom/c1/tokens/update-quantity": () => json({}),
      }),
    );
    const tokens = await app.getItem({ itemId: "tokens", customCustomerId: "c1" });
    expect(tokens.nonNegativeQuantity).toBe(2);
    await tokens.increaseQuantity(5);
    await tokens.decreaseQuantity(9);
    expect(await tokens.tryDecreaseQuantity(1)).toBe(true);
    const updates = calls.slice(1);
    expect(updates.map(bodyOf)).toEqual([{ delta: 5 }, { delta: -9 }, { delta: -1 }]);
    expect(updates.map((c) => queryOf(c).allow_negative)).toEqual(["true", "true", "false"]);
  });

  it("turns ITEM_QUANTITY_INSUFFICIENT_AMOUNT into false for tryDecreaseQuantity, and rethrows anything else", async () => {
    const insufficient = server(
      router({
        "GET /payments/items/custom/c1/tokens": () => item(0),
        "POST /payments/items/custom/c1/tokens/update-quantity": () =>
          knownError("ITEM_QUANTITY_INSUFFICIENT_AMOUNT", 400, { item_id: "tokens", customer_id: "c1", quantity: -3 }),
      }),
    );
    const tokens = await insufficient.app.getItem({ itemId: "tokens", customCustomerId: "c1" });
    expect(await tokens.tryDecreaseQuantity(3)).toBe(false);
    const error = await tokens.decreaseQuantity(3).catch((e: unknown) => e);
    expect(isKnownErrorOfType(error, "ITEM_QUANTITY_INSUFFICIENT_AMOUNT")).toBe(true);

    const missing = server(
      router({
        "GET /payments/items/custom/c1/tokens": () => item(0),
        "POST /payments/items/custom/c1/tokens/update-quantity": () =>
          knownError("ITEM_NOT_FOUND", 404, { item_id: "tokens" }),
      }),
    );
    const gone = await missing.app.getItem({ itemId: "tokens", customCustomerId: "c1" });
    const notFound = await gone.tryDecreaseQuantity(1).catch((e: unknown) => e);
    expect(isKnownErrorOfType(notFound, "ITEM_NOT_FOUND")).toBe(true);
  });

  it("refuses a negative or fractional amount before sending anything", async () => {
    const { app, calls } = server(router({ "GET /payments/items/custom/c1/tokens": () => item(0) }));
    const tokens = await app.getItem({ itemId: "tokens", customCustomerId: "c1" });
    await expect(tokens.increaseQuantity(-1)).rejects.toThrow(RangeError);
    await expect(tokens.tryDecreaseQuantity(1.5)).rejects.toThrow(/non-negative whole number/);
    expect(calls).toHaveLength(1);
  });

  it("updateItemQuantity defaults allow_negative to false and passes expires_at and description", async () => {
    const { app, calls } = server(() => json({}));
    await app.updateItemQuantity({
      itemId: "tokens",
      customCustomerId: "c1",
      delta: 4,
      expiresAt: "2030-01-01T00:00:00.000Z",
      description: "gift",
    });
    expect(queryOf(calls[0]!)).toEqual({ allow_negative: "false" });
    expect(bodyOf(calls[0]!)).toEqual({ delta: 4, expires_at: "2030-01-01T00:00:00.000Z", description: "gift" });
  });
});

describe("admin payments", () => {
  it("gives null account info before setup (STRIPE_ACCOUNT_INFO_NOT_FOUND), the account after", async () => {
    const before = admin(() => knownError("STRIPE_ACCOUNT_INFO_NOT_FOUND", 404));
    expect(await before.app.getStripeAccountInfo()).toBeNull();
    const account = { account_id: "acct_1", charges_enabled: true, details_submitted: true, payouts_enabled: false };
    const after = admin(router({ "GET /internal/payments/stripe/account-info": () => json(account) }));
    expect(await after.app.getStripeAccountInfo()).toEqual(account);
    expect(after.calls[0]!.headers).toMatchObject({
      "x-stack-access-type": "admin",
      "x-stack-super-secret-admin-key": "sak",
    });
  });

  it("sets up payments and opens a widget session with empty POST bodies", async () => {
    const { app, calls } = admin(
      router({
        "POST /internal/payments/setup": () =>
          json({ url: "http://localhost:8102/__emulator/payments/onboarding/acct_1" }),
        "POST /internal/payments/stripe-widgets/account-session": () => json({ client_secret: "acct_1_secret_x" }),
      }),
    );
    expect(await app.setupPayments()).toEqual({ url: "http://localhost:8102/__emulator/payments/onboarding/acct_1" });
    expect(await app.createStripeWidgetAccountSession()).toEqual({ client_secret: "acct_1_secret_x" });
    expect(calls.map(bodyOf)).toEqual([{}, {}]);
  });

  it("lists transactions with snake_case query parameters and gives nextCursor", async () => {
    const { app, calls } = admin(() => json({ transactions: [], next_cursor: "t-9" }));
    const page = await app.listTransactions({
      cursor: "t-1",
      limit: 2,
      type: "purchase",
      customerType: "user",
    });
    expect(page).toEqual({ transactions: [], nextCursor: "t-9" });
    expect(queryOf(calls[0]!)).toEqual({
      cursor: "t-1",
      limit: "2",
      type: "purchase",
      customer_type: "user",
    });
  });

  it("makes a manual item change that may go negative", async () => {
    const { app, calls } = admin(() => json({}));
    await app.createItemQuantityChange({
      userId: TEST_USER_ID,
      itemId: "credits",
      quantity: -10,
      description: "refund",
    });
    expect(new URL(calls[0]!.url).pathname).toBe(`/api/v1/payments/items/user/${TEST_USER_ID}/credits/update-quantity`);
    expect(queryOf(calls[0]!)).toEqual({ allow_negative: "true" });
    expect(bodyOf(calls[0]!)).toEqual({ delta: -10, description: "refund" });
  });
});

describe("data vault store", () => {
  /** A store on a Map, standing in for the server: it keeps whatever it is sent. */
  function vaultServer() {
    const stored = new Map<string, string>();
    return server(
      router({
        "POST /data-vault/stores/keys/set": (call) => {
          const body = bodyOf(call) as { hashed_key: string; encrypted_value: string };
          stored.set(body.hashed_key, body.encrypted_value);
          return json({ success: true });
        },
        "POST /data-vault/stores/keys/get": (call) => {
          const { hashed_key } = bodyOf(call) as { hashed_key: string };
          const value = stored.get(hashed_key);
          return value === undefined
            ? knownError("DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST", 400, { store_id: "keys", hashed_key })
            : json({ encrypted_value: value });
        },
      }),
    );
  }

  it("sends only a hashed key and a ciphertext, and reads the value back; a wrong secret finds nothing", async () => {
    const { app, calls } = vaultServer();
    const store = await app.getDataVaultStore("keys");
    expect(store.id).toBe("keys");
    await store.setValue("customer-7", "sk_live_abc", { secret: "vault-secret" });
    for (const text of calls.map((c) => c.body ?? "")) {
      expect(text).not.toContain("sk_live_abc");
      expect(text).not.toContain("customer-7");
      expect(text).not.toContain("vault-secret");
    }
    expect(await store.getValue("customer-7", { secret: "vault-secret" })).toBe("sk_live_abc");
    expect(await store.getValue("customer-7", { secret: "other-secret" })).toBeNull();
    expect(await store.getValue("customer-8", { secret: "vault-secret" })).toBeNull();
  });

  it("says 'secret must be a string' (and wants a string value) before any request", async () => {
    const { app, calls } = vaultServer();
    const store = await app.getDataVaultStore("keys");
    await expect(store.getValue("k", { secret: 1 } as never)).rejects.toThrow(new TypeError("secret must be a string"));
    await expect(store.setValue("k", "v", {} as never)).rejects.toThrow(new TypeError("secret must be a string"));
    await expect(store.setValue("k", 5 as never, { secret: "s" })).rejects.toThrow(
      new TypeError("value must be a string"),
    );
    expect(calls).toHaveLength(0);
  });

  it("throws DATA_VAULT_STORE_DOES_NOT_EXIST for an undeclared store", async () => {
    const { app } = server(() => knownError("DATA_VAULT_STORE_DOES_NOT_EXIST", 400, { store_id: "nope" }));
    const error = await (await app.getDataVaultStore("nope")).getValue("k", { secret: "s" }).catch((e: unknown) => e);
    expect(isKnownErrorOfType(error, "DATA_VAULT_STORE_DOES_NOT_EXIST")).toBe(true);
  });

  it("fails with the exact decryption message when the stored value was not sealed with this secret", async () => {
    const { app } = server(() => json({ encrypted_value: "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" }));
    const error = await (await app.getDataVaultStore("keys")).getValue("k", { secret: "s" }).catch((e: unknown) => e);
    expect((error as Error).message).toBe(
      "Data vault client-side decryption failed. Are you sure you're using the correct secret?",
    );
  });
});
