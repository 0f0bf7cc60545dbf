import { expect } from "vitest";
import { itemJson, type ItemJson, type PaymentsCatalogueInput, type TransactionJson } from "@authsim/sdk/contract";
import { uuid } from "@authsim/sdk/runtime";
import type { PaymentsConfigInput } from "../domain/ops/payments/payments-config.ts";
import { controlClient } from "@authsim/sdk/emulator";
import { DEV, ORIGIN, admin, api, expectJson, request, server, type Fields, type TestProvider } from "./api.ts";

/** Helpers for the payments and data-vault tests (protocol.md §5.13). */

/** The catalogue most payment tests use: one item per customer type and offers covering every flag. */
export const testCatalogue = {
  items: {
    credits: { display_name: "Credits", customer_type: "user" },
    seats: { display_name: "Seats", customer_type: "team" },
    tokens: { display_name: "Tokens", customer_type: "custom" },
  },
  offers: {
    pack: {
      display_name: "Credit pack",
      customer_type: "user",
      stackable: true,
      prices: { once: { USD: "2.50" } },
      included_items: { credits: { quantity: 10 } },
    },
    plan: {
      display_name: "Plan",
      customer_type: "user",
      prices: { monthly: { USD: "9.99", interval: [1, "month"] }, yearly: { USD: "99.00", interval: [1, "year"] } },
      included_items: { credits: { quantity: 500 } },
    },
    "team-pack": {
      display_name: "Team pack",
      customer_type: "team",
      prices: { once: { USD: "50.00" } },
      included_items: { seats: { quantity: 5 } },
    },
    "token-pack": {
      display_name: "Token pack",
      customer_type: "custom",
      stackable: true,
      prices: {},
      included_items: { tokens: { quantity: 1000 } },
    },
    secret: {
      display_name: "Secret",
      customer_type: "user",
      server_only: true,
      prices: { once: { USD: "1.00" } },
      included_items: { credits: { quantity: 1 } },
    },
    unlisted: {
      display_name: "Unlisted",
      customer_type: "user",
      hidden: true,
      prices: { once: { USD: "1.00" } },
      included_items: { credits: { quantity: 2 } },
    },
  },
} satisfies PaymentsCatalogueInput;

/** PUT /__emulator/projects/:id/payments-config, expecting success. */
export async function putPaymentsConfig(
  provider: TestProvider,
  config: PaymentsConfigInput,
  projectId: string = DEV.id,
): Promise<void> {
  await controlClient({ baseUrl: ORIGIN, fetch: provider.fetch }).call("setPaymentsConfig", {
    params: { project_id: projectId },
    body: config,
  });
}

export async function useTestCatalogue(provider: TestProvider, projectId: string = DEV.id): Promise<void> {
  await putPaymentsConfig(
    provider,
    { payments: testCatalogue, data_vault: { stores: { secrets: {}, notes: { display_name: "Notes" } } } },
    projectId,
  );
}

/** POST /internal/payments/setup: purchase URLs need the project's payments account. */
export async function setUpPayments(provider: TestProvider, headers: Fields = admin()): Promise<void> {
  await expectJson(await api(provider, "/internal/payments/setup", { method: "POST", headers, json: {} }));
}

export const itemPath = (customerType: string, customerId: string, itemId: string) =>
  `/payments/items/${customerType}/${encodeURIComponent(customerId)}/${encodeURIComponent(itemId)}`;

export async function readItem(
  provider: TestProvider,
  customerType: string,
  customerId: string,
  itemId: string,
  headers: Fields = server(),
): Promise<ItemJson> {
  return itemJson.parse(await expectJson(await api(provider, itemPath(customerType, customerId, itemId), { headers })));
}

export async function quantity(
  provider: TestProvider,
  customerType: string,
  customerId: string,
  itemId: string,
): Promise<number> {
  return (await readItem(provider, customerType, customerId, itemId)).quantity;
}

export function changeQuantity(
  provider: TestProvider,
  target: { type: string; id: string; item: string },
  body: { delta: number; expires_at?: string; description?: string },
  options: { allowNegative?: boolean; headers?: Fields } = {},
): Promise<Response> {
  // allow_negative is required by upstream's query schema; false is what the SDK sends by default.
  const query = `?allow_negative=${String(options.allowNegative ?? false)}`;
  return api(provider, `${itemPath(target.type, target.id, target.item)}/update-quantity${query}`, {
    headers: options.headers ?? server(),
    json: body,
  });
}

/** A team with the given members, written to the store directly: the teams area is not under test here. */
export async function seedTeam(
  provider: TestProvider,
  memberIds: string[] = [],
  projectId: string = DEV.id,
): Promise<string> {
  const now = provider.clock.now();
  return provider.store.transact((tables) => {
    const id = uuid(provider.random);
    tables.teams.set(id, {
      id,
      projectId,
      displayName: "Customers",
      profileImageUrl: null,
      clientMetadata: null,
      clientReadOnlyMetadata: null,
      serverMetadata: null,
      createdAtMillis: now,
    });
    for (const userId of memberIds)
      tables.teamMemberships.set(`${id}:${userId}`, { projectId, teamId: id, userId, createdAtMillis: now });
    return id;
  });
}

export async function purchaseUrl(
  provider: TestProvider,
  headers: Fields,
  body: Record<string, unknown>,
): Promise<string> {
  const { url } = await expectJson<{ url: string }>(
    await api(provider, "/payments/purchases/create-purchase-url", { headers, json: body }),
  );
  return url;
}

/** The path of a checkout URL (the provider answers any host in process). */
export const pathOf = (url: string) => new URL(url).pathname;

/** Posts the checkout page's form, as a browser would. */
export function submitCheckout(
  provider: TestProvider,
  url: string,
  form: Record<string, string> = {},
): Promise<Response> {
  return request(provider, pathOf(url), {
    method: "POST",
    body: new URLSearchParams(form).toString(),
    contentType: "application/x-www-form-urlencoded",
  });
}

/** A completed purchase through the page, expecting the confirmation page. */
export async function buy(provider: TestProvider, url: string, form: Record<string, string> = {}): Promise<void> {
  const response = await submitCheckout(provider, url, form);
  const html = await response.text();
  expect({ status: response.status, html }).toMatchObject({ status: 200 });
  expect(html).toContain("Purchase complete");
}

/** A refused checkout page: the catalogue code in its markup and the code's status. */
export async function expectPageError(response: Response, code: string, status: number): Promise<void> {
  const html = await response.text();
  expect({ status: response.status, html }).toMatchObject({ status });
  expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(html).toContain(`data-known-error="${code}"`);
}

export async function transactions(provider: TestProvider, query = "", headers: Fields = admin()) {
  return expectJson<{ transactions: TransactionJson[]; next_cursor: string | null }>(
    await api(provider, `/internal/payments/transactions${query}`, { headers }),
  );
}
