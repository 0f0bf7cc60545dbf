import { expect } from "vitest";
import { API_PREFIX, callerHeaders } from "@authsim/sdk/contract";
import type { ListTransactionsOptions, StackAdminApp, Transaction } from "@authsim/sdk";
import type { PaymentsConfigInput } from "@authsim/sdk/emulator";
import { controlOf, type Target } from "../targets.ts";

/**
 * What the payments and data-vault suites share: the catalogue they buy from, set through the emulator's control
 * endpoint (no public endpoint edits payments config yet), the provider's clock, and a browser-like walk through the
 * emulator's checkout page.
 */

export const NO_PAYMENTS_CONFIG_REASON =
  "needs the emulator's /__emulator/projects/:id/payments-config endpoint to declare items, offers and vault stores";

export const conformanceCatalogue = {
  payments: {
    items: {
      credits: { display_name: "Credits", customer_type: "user" },
      seats: { display_name: "Seats", customer_type: "team" },
      tokens: { display_name: "Tokens", customer_type: "custom" },
    },
    offers: {
      "credit-pack": {
        display_name: "Credit pack",
        customer_type: "user",
        stackable: true,
        prices: { once: { USD: "4.00" } },
        included_items: { credits: { quantity: 10 } },
      },
      "team-pack": {
        display_name: "Team pack",
        customer_type: "team",
        prices: { once: { USD: "30.00" } },
        included_items: { seats: { quantity: 3 } },
      },
      "staff-grant": {
        display_name: "Staff grant",
        customer_type: "user",
        server_only: true,
        prices: {},
        included_items: { credits: { quantity: 1000 } },
      },
    },
  },
  data_vault: { stores: { conformance: { display_name: "Conformance" } } },
} satisfies PaymentsConfigInput;

/** The catalogue, and the project's payments account (purchase URLs need one, as on the real service). */
export async function useConformanceCatalogue(target: Target): Promise<void> {
  await controlOf(target).call("setPaymentsConfig", {
    params: { project_id: target.projectId },
    body: conformanceCatalogue,
  });
  const setup = await target.fetch(`${target.baseUrl}${API_PREFIX}/internal/payments/setup`, {
    method: "POST",
    headers: {
      ...callerHeaders({
        accessType: "admin",
        projectId: target.projectId,
        superSecretAdminKey: target.superSecretAdminKey,
      }),
      "content-type": "application/json",
    },
    body: "{}",
  });
  expect(setup.status, await setup.clone().text()).toBe(200);
}

/** The provider's own time (the served fake's clock is the wall clock plus whatever the controls added). */
export async function providerNow(target: Target): Promise<number> {
  return (await controlOf(target).call("clock")).now_millis;
}

/** Opens a checkout URL as a browser would, picks a price, and submits the form. Returns the final response. */
export async function completeCheckoutPage(
  target: Target,
  url: string,
  form: { priceId?: string; quantity?: number } = {},
): Promise<Response> {
  const page = await target.fetch(url);
  const html = await page.text();
  expect({ status: page.status, html }).toMatchObject({ status: 200 });
  expect(html).toContain("Complete purchase");
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1];
  if (!action) throw new Error(`The checkout page has no form: ${html}`);
  const firstPrice = /name="price_id" value="([^"]+)"/.exec(html)?.[1];
  const fields = new URLSearchParams();
  const priceId = form.priceId ?? firstPrice;
  if (priceId !== undefined) fields.set("price_id", priceId);
  fields.set("quantity", String(form.quantity ?? 1));
  return target.fetch(new URL(action, url).toString(), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: fields.toString(),
    redirect: "manual",
  });
}

/** Completes the purchase and expects the confirmation page. */
export async function buyOnCheckoutPage(
  target: Target,
  url: string,
  form: { priceId?: string; quantity?: number } = {},
): Promise<void> {
  const response = await completeCheckoutPage(target, url, form);
  const html = await response.text();
  expect({ status: response.status, html }).toMatchObject({ status: 200 });
  expect(html).toContain("Purchase complete");
}

/** Submits the onboarding page that setupPayments links to. */
export async function completeOnboardingPage(target: Target, url: string): Promise<void> {
  const page = await target.fetch(url);
  expect(await page.text()).toContain("Complete onboarding");
  const done = await target.fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "",
    // Completing returns to the dashboard (a 303 to setup's return URL), which need not be running here.
    redirect: "manual",
  });
  expect(done.status).toBe(303);
  expect(await (await target.fetch(url)).text()).toContain("onboarding completed");
}

/**
 * The transactions of one customer, newest first, every page walked: the list filters by customer type only (the real
 * service's query has no customer id), so the customer is matched on each transaction's first entry.
 */
export async function transactionsOf(
  admin: StackAdminApp,
  options: Pick<ListTransactionsOptions, "type"> & {
    customerType: NonNullable<ListTransactionsOptions["customerType"]>;
    customerId: string;
  },
): Promise<Transaction[]> {
  const found: Transaction[] = [];
  let cursor: string | undefined;
  do {
    const page = await admin.listTransactions({
      customerType: options.customerType,
      limit: 200,
      ...(options.type ? { type: options.type } : {}),
      ...(cursor ? { cursor } : {}),
    });
    for (const t of page.transactions) {
      const first = t.entries[0];
      if (first && "customer_id" in first && first.customer_id === options.customerId) found.push(t);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}
