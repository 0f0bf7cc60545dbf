import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  INTERNAL,
  START_MILLIS,
  api,
  client,
  expectJson,
  expectKnownError,
  families,
  newProvider,
  server,
  signUp,
  type TestProvider,
} from "../../../test-support/api.ts";
import {
  changeQuantity,
  itemPath,
  quantity,
  readItem,
  seedTeam,
  transactions,
  useTestCatalogue,
} from "../../../test-support/payments.ts";

/** Items (spec §3, §4 "Item quantity", §9 allow_negative; protocol.md §5.13): reads, updates, expiry, every error. */

let provider: TestProvider;
beforeEach(async () => {
  provider = newProvider();
  await useTestCatalogue(provider);
});
afterEach(() => {
  expect(provider.unexpected).toEqual([]);
});

const CUSTOM = { type: "custom", id: "org_42", item: "tokens" };
const iso = (millis: number) => new Date(millis).toISOString();

describe("GET /payments/items/{type}/{id}/{item}", () => {
  it("answers id, display name and a zero quantity for a customer that has none", async () => {
    const user = await signUp(provider);
    const body = await expectJson(
      await api(provider, itemPath("user", user.user_id, "credits"), { headers: server() }),
    );
    expect(body).toEqual({ id: "credits", display_name: "Credits", quantity: 0 });
  });

  it("lets a client read its own user's items and the items of teams it is team_admin of, with either header family", async () => {
    const user = await signUp(provider);
    const team = await seedTeam(provider, [user.user_id]);
    const granted = await api(provider, `/team-permissions/${team}/${user.user_id}/team_admin`, {
      headers: server(),
      json: {},
    });
    expect(granted.status).toBe(201);
    for (const family of families) {
      const own = await api(provider, itemPath("user", user.user_id, "credits"), {
        headers: client({ accessToken: user.access_token }),
        family,
      });
      expect(await expectJson(own)).toMatchObject({ id: "credits", quantity: 0 });
      const teamItem = await api(provider, itemPath("team", team, "seats"), {
        headers: client({ accessToken: user.access_token }),
        family,
      });
      expect(await expectJson(teamItem)).toMatchObject({ id: "seats", display_name: "Seats" });
    }
  });

  it("refuses a plain team member TEAM_PERMISSION_REQUIRED (team_admin) and a non-member TEAM_MEMBERSHIP_NOT_FOUND", async () => {
    const user = await signUp(provider);
    const other = await signUp(provider);
    const team = await seedTeam(provider, [user.user_id]);
    const foreignTeam = await seedTeam(provider, [other.user_id]);
    const headers = client({ accessToken: user.access_token });
    const member = await expectKnownError(
      await api(provider, itemPath("team", team, "seats"), { headers }),
      "TEAM_PERMISSION_REQUIRED",
      401,
    );
    expect(member.details).toEqual({ team_id: team, user_id: user.user_id, permission_id: "team_admin" });
    await expectKnownError(
      await api(provider, itemPath("team", foreignTeam, "seats"), { headers }),
      "TEAM_MEMBERSHIP_NOT_FOUND",
      404,
    );
  });

  it("refuses a client another user's items and custom customers' with the route's plain 403", async () => {
    const user = await signUp(provider);
    const other = await signUp(provider);
    const headers = client({ accessToken: user.access_token });
    // Before the item is looked up: an item the catalogue lacks is refused the same way.
    for (const path of [
      itemPath("user", other.user_id, "credits"),
      itemPath("custom", "org_42", "tokens"),
      itemPath("custom", "org_42", "no-such-item"),
    ]) {
      const response = await api(provider, path, { headers });
      expect([response.status, await response.text()], path).toEqual([
        403,
        "Clients can only access their own user or team items.",
      ]);
    }
  });

  it("needs a signed-in user for client access (USER_AUTHENTICATION_REQUIRED)", async () => {
    const user = await signUp(provider);
    await expectKnownError(
      await api(provider, itemPath("user", user.user_id, "credits"), { headers: client() }),
      "USER_AUTHENTICATION_REQUIRED",
      401,
    );
  });

  it("answers ITEM_NOT_FOUND (404) for an item the catalogue lacks", async () => {
    const body = await expectKnownError(
      await api(provider, itemPath("custom", "c1", "gold"), { headers: server() }),
      "ITEM_NOT_FOUND",
      404,
    );
    expect(body.details).toEqual({ item_id: "gold" });
    expect(body.error).toBe('Item with ID "gold" not found.');
    // Ids in the path are plain strings: an unusual one is still "not found", not a schema error.
    const odd = await expectKnownError(
      await api(provider, itemPath("custom", "c1", "no such item"), { headers: server() }),
      "ITEM_NOT_FOUND",
      404,
    );
    expect(odd.details).toEqual({ item_id: "no such item" });
  });

  it("answers ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH (400) when the item serves another customer type", async () => {
    const user = await signUp(provider);
    const body = await expectKnownError(
      await api(provider, itemPath("user", user.user_id, "tokens"), { headers: server() }),
      "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
      400,
    );
    expect(body.details).toEqual({
      item_id: "tokens",
      customer_id: user.user_id,
      item_customer_type: "custom",
      actual_customer_type: "user",
    });
  });

  it("answers USER_NOT_FOUND and TEAM_NOT_FOUND (404) for unknown users and teams; custom ids always exist", async () => {
    for (const id of ["3f0c8a52-7d1e-4c9b-8f2a-1b2c3d4e5f60", "not-a-uuid"]) {
      await expectKnownError(
        await api(provider, itemPath("user", id, "credits"), { headers: server() }),
        "USER_NOT_FOUND",
        404,
      );
    }
    const team = await expectKnownError(
      await api(provider, itemPath("team", "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d", "seats"), { headers: server() }),
      "TEAM_NOT_FOUND",
      404,
    );
    expect(team.details).toEqual({ team_id: "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d" });
    expect(await quantity(provider, "custom", "anything-at-all", "tokens")).toBe(0);
  });

  it("does not find a user of another project", async () => {
    const internalUser = await signUp(provider, { project: INTERNAL });
    await expectKnownError(
      await api(provider, itemPath("user", internalUser.user_id, "credits"), { headers: server() }),
      "USER_NOT_FOUND",
      404,
    );
  });

  it("rejects an unknown customer type with SCHEMA_ERROR", async () => {
    await expectKnownError(
      await api(provider, itemPath("robot", "r1", "credits"), { headers: server() }),
      "SCHEMA_ERROR",
      400,
    );
  });
});

describe("POST …/update-quantity", () => {
  it("adds signed deltas and answers an empty object", async () => {
    expect(await expectJson(await changeQuantity(provider, CUSTOM, { delta: 5, description: "welcome" }))).toEqual({});
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 7 }));
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: -3 }));
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(9);
  });

  it("refuses a charge beyond the quantity with ITEM_QUANTITY_INSUFFICIENT_AMOUNT when allow_negative is false", async () => {
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 4 }));
    const body = await expectKnownError(
      await changeQuantity(provider, CUSTOM, { delta: -5 }, { allowNegative: false }),
      "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
      400,
    );
    expect(body.details).toEqual({ item_id: "tokens", customer_id: "org_42", quantity: -5 });
    // The refused change left nothing behind: neither quantity nor transaction.
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(4);
    expect((await transactions(provider)).transactions).toHaveLength(1);
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: -4 }));
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(0);
  });

  it("requires allow_negative (true or false) as upstream's query schema does", async () => {
    const path = `${itemPath("custom", "org_42", "tokens")}/update-quantity`;
    const missing = await api(provider, path, { headers: server(), json: { delta: 1 } });
    expect((await expectKnownError(missing, "SCHEMA_ERROR", 400)).error).toContain("query.allow_negative");
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(0);
  });

  it("goes below zero with allow_negative=true; then, without it, even a grant that leaves it negative is refused", async () => {
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: -8 }, { allowNegative: true }));
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(-8);
    const body = await expectKnownError(
      await changeQuantity(provider, CUSTOM, { delta: 3 }),
      "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
      400,
    );
    expect(body.details).toEqual({ item_id: "tokens", customer_id: "org_42", quantity: 3 });
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 3 }, { allowNegative: true }));
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 5 }));
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(0);
  });

  it("takes any description and any date Date reads as expires_at; an empty expires_at is none", async () => {
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 2, description: "x".repeat(5_000) }));
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 3, expires_at: "" }));
    const soon = new Date(START_MILLIS + 1_000).toUTCString();
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 4, expires_at: soon }));
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(9);
    provider.clock.advance(1_000);
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(5);
  });

  it("stops counting a change once the clock reaches its expires_at", async () => {
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 10, expires_at: iso(START_MILLIS + 60_000) }));
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 1 }));
    provider.clock.advance(59_999);
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(11);
    provider.clock.advance(1);
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(1);
    // The expired grant no longer covers a charge.
    await expectKnownError(
      await changeQuantity(provider, CUSTOM, { delta: -2 }),
      "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
      400,
    );
  });

  it("lets an expiring charge lapse too", async () => {
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 5 }));
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: -5, expires_at: iso(START_MILLIS + 1_000) }));
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(0);
    provider.clock.advance(1_000);
    expect(await quantity(provider, "custom", "org_42", "tokens")).toBe(5);
  });

  it("applies the item checks of the read (ITEM_NOT_FOUND, ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH, USER_NOT_FOUND)", async () => {
    await expectKnownError(
      await changeQuantity(provider, { ...CUSTOM, item: "gold" }, { delta: 1 }),
      "ITEM_NOT_FOUND",
      404,
    );
    await expectKnownError(
      await changeQuantity(provider, { ...CUSTOM, item: "credits" }, { delta: 1 }),
      "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
      400,
    );
    await expectKnownError(
      await changeQuantity(
        provider,
        { type: "user", id: "3f0c8a52-7d1e-4c9b-8f2a-1b2c3d4e5f60", item: "credits" },
        { delta: 1 },
      ),
      "USER_NOT_FOUND",
      404,
    );
  });

  it("is server-side only: a client gets INSUFFICIENT_ACCESS_TYPE even for its own items", async () => {
    const user = await signUp(provider);
    const response = await changeQuantity(
      provider,
      { type: "user", id: user.user_id, item: "credits" },
      { delta: 1 },
      { headers: client({ accessToken: user.access_token }) },
    );
    await expectKnownError(response, "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("updates a user's and a team's items with server access", async () => {
    const user = await signUp(provider);
    const team = await seedTeam(provider, [user.user_id]);
    await expectJson(await changeQuantity(provider, { type: "user", id: user.user_id, item: "credits" }, { delta: 3 }));
    await expectJson(await changeQuantity(provider, { type: "team", id: team, item: "seats" }, { delta: 2 }));
    expect(
      (await readItem(provider, "user", user.user_id, "credits", client({ accessToken: user.access_token }))).quantity,
    ).toBe(3);
    expect((await readItem(provider, "team", team, "seats", server())).quantity).toBe(2);
  });

  it("rejects malformed input with SCHEMA_ERROR naming each problem", async () => {
    const response = await changeQuantity(provider, CUSTOM, { delta: 1.5, expires_at: "not a date" });
    const body = await expectKnownError(response, "SCHEMA_ERROR", 400);
    expect(body.error).toContain("body.delta");
    expect(body.error).toContain("body.expires_at must be a date");
    const badQuery = await api(
      provider,
      `${itemPath("custom", "org_42", "tokens")}/update-quantity?allow_negative=yes`,
      { headers: server(), json: { delta: 1 } },
    );
    expect((await expectKnownError(badQuery, "SCHEMA_ERROR", 400)).error).toContain("query.allow_negative");
  });

  it("sends a refused request as 200 with the actual status when the caller asks for the override", async () => {
    const response = await changeQuantity(
      provider,
      CUSTOM,
      { delta: -1 },
      { headers: server({ overrideErrorStatus: "true" }) },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("x-stack-actual-status")).toBe("400");
    expect(response.headers.get("x-hexclave-actual-status")).toBeNull();
    expect(response.headers.get("x-stack-known-error")).toBe("ITEM_QUANTITY_INSUFFICIENT_AMOUNT");
  });

  it("records each change as a manual-item-quantity-change transaction", async () => {
    await expectJson(await changeQuantity(provider, CUSTOM, { delta: 6 }));
    const [transaction] = (await transactions(provider)).transactions;
    expect(transaction).toMatchObject({
      type: "manual-item-quantity-change",
      created_at_millis: START_MILLIS,
      test_mode: false,
      entries: [
        {
          type: "item_quantity_change",
          item_id: "tokens",
          quantity: 6,
          customer_type: "custom",
          customer_id: "org_42",
        },
      ],
    });
  });
});
