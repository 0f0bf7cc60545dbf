import { describe, expect, it } from "vitest";
import type { ClientTeamJson } from "../contract/areas/teams.ts";
import { manualClock } from "../runtime/clock.ts";
import { StackServerApp } from "../server/server-app.ts";
import { memoryTokenStore } from "../session/token-store.ts";
import { fakeFetch, json, recordingSleep, type Responder } from "../test-support/fake-fetch.ts";
import { router } from "../test-support/router.ts";
import { claims, TEST_USER_ID, unsignedToken } from "../test-support/tokens.ts";
import { clientUserJson } from "../test-support/wire-fixtures.ts";
import { StackClientApp } from "./client-app.ts";

/** A customer's billing members on the wire (sdk-surface.md §15): getBilling, the setup intent, set-default. */

const T0 = 1_750_000_000_000;
const TEAM_ID = "5a0e2a64-1111-4222-8333-944455556666";
const team: ClientTeamJson = {
  id: TEAM_ID,
  display_name: "Rocket",
  profile_image_url: null,
  client_metadata: null,
  client_read_only_metadata: null,
};
const card = { id: "pm_abc", brand: "mastercard", last4: "4444", exp_month: 3, exp_year: 2031 };
const common = {
  projectId: "internal",
  baseUrl: "http://api.test",
  clock: manualClock(T0),
  sleep: recordingSleep().sleep,
};

function client(responder: Responder) {
  const ff = fakeFetch(responder);
  const accessToken = unsignedToken(claims(T0, 600_000));
  const app = new StackClientApp({
    ...common,
    tokenStore: memoryTokenStore({ accessToken, refreshToken: "rt" }),
    fetch: ff.fetch,
  });
  return { app, calls: ff.calls, accessToken };
}

const bodyOf = (call: { body: string | undefined }): unknown => JSON.parse(call.body ?? "null");
const line = (call: { url: string; method: string }) =>
  `${call.method} ${new URL(call.url).pathname.replace("/api/v1", "")}`;

describe("the current user as a customer", () => {
  it("creates a setup intent, sets the confirmed intent's card as the default, and reads billing, with the user's session", async () => {
    const base = `/payments/payment-method/user/${TEST_USER_ID}`;
    const { app, calls, accessToken } = client(
      router({
        "GET /users/me": () => json(clientUserJson()),
        [`POST ${base}/setup-intent`]: () => json({ client_secret: "seti_1_secret_2", stripe_account_id: "acct_1" }),
        [`POST ${base}/set-default`]: () => json({ success: true, default_payment_method: card }),
        [`GET /payments/billing/user/${TEST_USER_ID}`]: () =>
          json({ has_customer: true, default_payment_method: card }),
      }),
    );
    const user = await app.getUser({ or: "throw" });
    expect(await user.createPaymentMethodSetupIntent()).toEqual({
      clientSecret: "seti_1_secret_2",
      stripeAccountId: "acct_1",
    });
    expect(await user.setDefaultPaymentMethodFromSetupIntent("seti_1")).toEqual(card);
    expect(await user.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: card });

    expect(calls.slice(1).map(line)).toEqual([
      `POST ${base}/setup-intent`,
      `POST ${base}/set-default`,
      `GET /payments/billing/user/${TEST_USER_ID}`,
    ]);
    expect(bodyOf(calls[1]!)).toEqual({});
    expect(bodyOf(calls[2]!)).toEqual({ setup_intent_id: "seti_1" });
    for (const call of calls.slice(1))
      expect(call.headers).toMatchObject({ "x-stack-access-type": "client", "x-stack-access-token": accessToken });
  });

  it("passes on a null default and a customer the provider does not have", async () => {
    const { app } = client(
      router({
        "GET /users/me": () => json(clientUserJson()),
        [`GET /payments/billing/user/${TEST_USER_ID}`]: () =>
          json({ has_customer: false, default_payment_method: null }),
      }),
    );
    expect(await (await app.getUser({ or: "throw" })).getBilling()).toEqual({
      hasCustomer: false,
      defaultPaymentMethod: null,
    });
  });
});

describe("a team as a customer", () => {
  it("addresses the team's payment method, from the client with the user's session and from the server with its key", async () => {
    const { app, calls } = client(
      router({
        "GET /users/me": () => json(clientUserJson({ selected_team_id: TEAM_ID, selected_team: team })),
        [`POST /payments/payment-method/team/${TEAM_ID}/set-default`]: () =>
          json({ success: true, default_payment_method: card }),
      }),
    );
    const selected = (await app.getUser({ or: "throw" })).selectedTeam!;
    expect(await selected.setDefaultPaymentMethodFromSetupIntent("seti_team")).toEqual(card);
    expect(line(calls[1]!)).toBe(`POST /payments/payment-method/team/${TEAM_ID}/set-default`);

    const ff = fakeFetch(
      router({
        [`GET /payments/billing/team/${TEAM_ID}`]: () => json({ has_customer: true, default_payment_method: null }),
        [`GET /teams/${TEAM_ID}`]: () => json({ ...team, server_metadata: null, created_at_millis: T0 }),
      }),
    );
    const server = new StackServerApp({ ...common, secretServerKey: "ssk", fetch: ff.fetch });
    const serverTeam = await server.getTeam(TEAM_ID);
    expect(await serverTeam!.getBilling()).toEqual({ hasCustomer: true, defaultPaymentMethod: null });
    expect(ff.calls.at(-1)!.headers).toMatchObject({
      "x-stack-access-type": "server",
      "x-stack-secret-server-key": "ssk",
    });
    expect(ff.calls.at(-1)!.headers["x-stack-access-token"]).toBeUndefined();
  });
});
